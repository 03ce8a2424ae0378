/**
 * "Open in Web Console": a URL template from settings with `{id}`, `{tenant_id}` and `{name}`,
 * filled from a deployment record. Values are URL-encoded; a placeholder the record has no value
 * for, or a result that is not an http(s) address, is a problem named for the user.
 */
import type { Deployment } from '../api';

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
  if (missing.size > 0) return { problem: `This deployment has no ${[...missing].join(' or ')} for the web console URL.` };
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return { problem: `The web console URL template “${template}” does not make an address; check deploymentsExplorer.webConsoleUrl.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `The web console URL must start with http:// or https://; check deploymentsExplorer.webConsoleUrl.` };
  }
  return { url: url.toString() };
}
