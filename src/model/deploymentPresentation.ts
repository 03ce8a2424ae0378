/** How a deployment row looks and where its links go, decided without VS Code so it can be unit tested. */
import type { Deployment } from '../api';
import { isUnrecognisedStatus, statusWords, statusWithRawValue } from './deploymentStatus';
import { deploymentType } from './deploymentType';
import { shortId } from './ids';
import * as l10n from '@vscode/l10n';
import { normaliseRemoteUrl } from './remoteUrls';
import { formatTime } from './viewText';

/**
 * The status is an open list. Each status the extension knows has its icon; UNKNOWN (the server says it
 * does not know) and a missing status get the question mark. A value the extension does not know never
 * gets the question mark, so the two can be told apart: one that reads like a failure gets the warning,
 * one that reads like a wait gets sync, any other the empty circle of an unrecognised status.
 */
export function statusIcon(status: string | null | undefined): { id: string; color?: string } {
  const value = (status ?? '').trim().toUpperCase();
  if (value === 'READY') return { id: 'pass-filled', color: 'testing.iconPassed' };
  if (value === 'AWAITING_DELETE' || value === 'AWAITING_FINAL_DELETE') return { id: 'trash' };
  if (value === 'AWAITING_DATABASE') return { id: 'clock' };
  if (value === 'UNUSED') return { id: 'circle-slash' };
  if (!isUnrecognisedStatus(value)) return { id: 'question' };
  if (/FAIL|ERROR|DEGRADED|CRASH/.test(value)) return { id: 'warning', color: 'problemsWarningIcon.foreground' };
  if (value.startsWith('AWAITING')) return { id: 'sync' };
  return { id: 'circle-large-outline' };
}

export function deploymentLabel(deployment: Deployment): string {
  if (hasText(deployment.name)) return deployment.name;
  if (typeof deployment.id === 'string' && deployment.id) return shortId(deployment.id);
  return l10n.t('(unnamed deployment)');
}

/** `Awaiting database · 0.3.2`: the status in words (the raw value is in the tooltip and the JSON), then the image version. */
export function deploymentDescription(deployment: Deployment): string {
  const status = typeof deployment.status === 'string' ? statusWords(deployment.status) : '';
  return [status, deployment.image_version].filter(hasText).join(' · ');
}

/** `deployment` plus one token per action the record supports; package.json menus match them, e.g. /^deployment\b.*\bstatus\b/. */
export function deploymentContextValue(deployment: Deployment): string {
  const source = deployment.source_config;
  const tokens = ['deployment'];
  if (typeof deployment.id === 'string' && deployment.id) tokens.push('id');
  if (hasText(deployment.status)) tokens.push('status');
  if (hasText(deployment.image_version)) tokens.push('image');
  if (customUrlOf(deployment)) tokens.push('customUrl');
  if (hasText(source?.repo_url)) tokens.push('repo');
  // Reveal Repository needs both: the repository is looked up in that integration.
  if (hasText(source?.integration_id)) tokens.push('integration');
  return tokens.join(' ');
}

export function customUrlOf(deployment: Deployment): string | undefined {
  const value = deployment.source_config?.custom_url?.trim() ?? '';
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return url?.protocol === 'http:' || url?.protocol === 'https:' ? url.toString() : undefined;
}

const TREE_STYLE_HOSTS = /(^|\.)(github|gitlab|gitea|codeberg)\./i;

/**
 * Where "Open Repository at Ref" goes: the deployed commit when the record has one (a branch moves on),
 * else the ref, as `<repo>/tree/<target>` on GitHub/GitLab-like hosts, which all understand that path;
 * the plain repository page elsewhere. ssh and scp-like URLs become their https page.
 */
export function repositoryWebUrl(deployment: Deployment): string | undefined {
  const raw = deployment.source_config?.repo_url?.trim();
  const remote = raw ? normaliseRemoteUrl(raw) : undefined;
  if (!raw || !remote) return undefined;
  const base = `${/^http:\/\//i.test(raw) ? 'http' : 'https'}://${remote.host}/${remote.path}`;
  const revision = deployment.source_revision_config;
  const target = revision?.repo_commit_sha?.trim() || revision?.repo_ref?.trim();
  if (!target || !TREE_STYLE_HOSTS.test(remote.host)) return base;
  return `${base}/tree/${target.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * "Open in Web Console": a URL template from settings with `{id}`, `{tenant_id}` and `{name}`, filled
 * from the record. Values are URL-encoded; a placeholder the record has no value for, or a result that
 * is not an http(s) address, is a problem named for the user.
 */
export function webConsoleUrl(template: string, deployment: Deployment): { url: string } | { problem: string } {
  const missing = new Set<string>();
  const address = template.trim().replace(/\{(id|tenant_id|name)\}/g, (_all, field: 'id' | 'tenant_id' | 'name') => {
    const value = deployment[field];
    if (typeof value === 'string' && value) return encodeURIComponent(value);
    missing.add(field);
    return '';
  });
  if (missing.size > 0) return { problem: l10n.t('This deployment has no {0} for the web console URL.', [...missing].join(l10n.t(' or '))) };
  const url = URL.canParse(address) ? new URL(address) : undefined;
  if (!url) return { problem: l10n.t('The web console URL template “{0}” does not make an address; check deploymentsExplorer.webConsoleUrl.', template) };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: l10n.t('The web console URL must start with http:// or https://; check deploymentsExplorer.webConsoleUrl.') };
  }
  return { url: url.toString() };
}

/** A row's tooltip: what tells it apart, and what it was built from (a record not built from a repository: its image, or its source tarball). */
export function tooltipFields(deployment: Deployment, locale?: string): Array<[string, string]> {
  const status = typeof deployment.status === 'string' ? statusWithRawValue(deployment.status) : '';
  const time = (value: string | null | undefined) => value && formatTime(value, locale);
  const repository = deployment.source_config?.repo_url;
  const revision = deployment.source_revision_config;
  const image = hasText(repository) ? undefined : revision?.image_uri;
  const fields: Array<[string, unknown]> = [
    [l10n.t('ID'), deployment.id],
    [l10n.t('Status'), status && isUnrecognisedStatus(deployment.status) ? l10n.t('{0}, a status this extension does not know', status) : status],
    [l10n.t('Type'), deploymentType(deployment)],
    [l10n.t('Image version'), deployment.image_version],
    [l10n.t('Repository'), repository],
    [l10n.t('Ref'), revision?.repo_ref],
    [l10n.t('Image'), image],
    [l10n.t('Source tarball'), hasText(repository) || hasText(image) ? undefined : revision?.source_tarball_path],
    [l10n.t('Created'), time(deployment.created_at)],
    [l10n.t('Updated'), time(deployment.updated_at)],
  ];
  return fields.filter((field): field is [string, string] => hasText(field[1]));
}

export function accessibleLabel(deployment: Deployment): string {
  const parts = [l10n.t('Deployment {0}', deploymentLabel(deployment))];
  if (hasText(deployment.status)) parts.push(l10n.t('status {0}', statusWords(deployment.status)));
  if (deployment.image_version) parts.push(l10n.t('image version {0}', deployment.image_version));
  return parts.join(', ');
}

function hasText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
