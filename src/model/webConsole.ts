/**
 * "Open in Web Console": a URL template from settings with `{id}`, `{tenant_id}` and `{name}`,
 * filled from a deployment record. Values are URL-encoded; a placeholder the record has no value
 * for, or a result that is not an http(s) address, is a problem named for the user.
 */
import type { Deployment } from '../api';
import * as l10n from '@vscode/l10n';

const PLACEHOLDER = /\{(id|tenant_id|name)\}/g;

export function webConsoleUrl(template: string, deployment: Deployment): { url: string } | { problem: string } {
  const missing = new Set<string>();
  const filled = template.trim().replace(PLACEHOLDER, (_all, field: 'id' | 'tenant_id' | 'name') => {
    const value = deployment[field];
    if (typeof value !== 'string' || !value) {
      missing.add(field);
      return '';
    }
    return encodeURIComponent(value);
  });
  if (missing.size > 0) return { problem: l10n.t('This deployment has no {0} for the web console URL.', [...missing].join(l10n.t(' or '))) };
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return { problem: l10n.t('The web console URL template “{0}” does not make an address; check deploymentsExplorer.webConsoleUrl.', template) };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: l10n.t('The web console URL must start with http:// or https://; check deploymentsExplorer.webConsoleUrl.') };
  }
  return { url: url.toString() };
}
