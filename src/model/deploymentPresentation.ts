import type { Deployment } from '../api';
import { isUnrecognisedStatus, statusWords, statusWithRawValue } from './deploymentStatus';
import { shortId } from './ids';
import * as l10n from '@vscode/l10n';
import { normaliseRemoteUrl } from './remoteUrls';
import { formatTime } from './viewText';

/** How a deployment row looks, decided without VS Code so it can be unit tested. */

export interface StatusIcon {
  /** A codicon id. */
  id: string;
  /** A theme color id, when the status has a color. */
  color?: string;
}

/**
 * The status is an open list. Each status the extension knows has its icon; UNKNOWN (the
 * server says it does not know) and a missing status get the question mark. A value the
 * extension does not know never gets the question mark, so the two can be told apart: one
 * that reads like a failure gets the warning, one that reads like a wait gets sync, any other
 * the empty circle of an unrecognised status.
 */
export function statusIcon(status: string | null | undefined): StatusIcon {
  const value = (status ?? '').trim().toUpperCase();
  if (value === 'READY') return { id: 'pass-filled', color: 'testing.iconPassed' };
  if (value === 'AWAITING_DELETE') return { id: 'trash' };
  if (value === 'AWAITING_DATABASE') return { id: 'clock' };
  if (value === 'UNUSED') return { id: 'circle-slash' };
  if (!isUnrecognisedStatus(value)) return { id: 'question' };
  if (/FAIL|ERROR|DEGRADED|CRASH/.test(value)) return { id: 'warning', color: 'problemsWarningIcon.foreground' };
  if (value.startsWith('AWAITING')) return { id: 'sync' };
  return { id: 'circle-large-outline' };
}

export function deploymentLabel(deployment: Deployment): string {
  if (typeof deployment.name === 'string' && deployment.name.trim()) return deployment.name;
  if (typeof deployment.id === 'string' && deployment.id) return shortId(deployment.id);
  return l10n.t('(unnamed deployment)');
}

/**
 * `Awaiting database · 0.3.2`: the status in words (the raw value is in the tooltip and the
 * JSON), then the image version, with only the parts the record has.
 */
export function deploymentDescription(deployment: Deployment): string {
  const status = typeof deployment.status === 'string' ? statusWords(deployment.status) : '';
  return [status, deployment.image_version].filter((part) => typeof part === 'string' && part.trim()).join(' · ');
}

/**
 * `deployment` plus one token per action the record supports; package.json
 * menus match them, e.g. /^deployment\b.*\bstatus\b/.
 */
export function deploymentContextValue(deployment: Deployment): string {
  const tokens = ['deployment'];
  if (typeof deployment.id === 'string' && deployment.id) tokens.push('id');
  if (typeof deployment.status === 'string' && deployment.status.trim()) tokens.push('status');
  if (typeof deployment.image_version === 'string' && deployment.image_version.trim()) tokens.push('image');
  if (webUrl(deployment.source_config?.custom_url)) tokens.push('customUrl');
  if (typeof deployment.source_config?.repo_url === 'string' && deployment.source_config.repo_url.trim()) tokens.push('repo');
  // Reveal Repository needs both: the repository is looked up in that integration.
  if (typeof deployment.source_config?.integration_id === 'string' && deployment.source_config.integration_id.trim()) tokens.push('integration');
  return tokens.join(' ');
}

/** The record's custom URL when it is an http(s) address, else undefined. */
export function customUrlOf(deployment: Deployment): string | undefined {
  return webUrl(deployment.source_config?.custom_url);
}

function webUrl(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

const TREE_STYLE_HOSTS = /(^|\.)(github|gitlab|gitea|codeberg)\./i;

/**
 * Where "Open Repository at Ref" goes: the deployed commit when the record
 * has one (a branch moves on), else the ref, as `<repo>/tree/<target>` on
 * GitHub/GitLab-like hosts, which all understand that path; the plain
 * repository page elsewhere. ssh and scp-like URLs become their https page.
 */
export function repositoryWebUrl(deployment: Deployment): string | undefined {
  const raw = deployment.source_config?.repo_url?.trim();
  if (!raw) return undefined;
  const remote = normaliseRemoteUrl(raw);
  if (!remote) return undefined;
  const scheme = /^http:\/\//i.test(raw) ? 'http' : 'https';
  const base = `${scheme}://${remote.host}/${remote.path}`;
  const revision = deployment.source_revision_config;
  const target = revision?.repo_commit_sha?.trim() || revision?.repo_ref?.trim();
  if (!target || !TREE_STYLE_HOSTS.test(remote.host)) return base;
  const path = target
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `${base}/tree/${path}`;
}

/** The lines of a row's tooltip, label first. */
export function tooltipFields(deployment: Deployment, locale?: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  const add = (label: string, value: unknown) => {
    if (typeof value === 'string' && value.trim()) fields.push([label, value]);
  };
  add(l10n.t('ID'), deployment.id);
  add(l10n.t('Status'), typeof deployment.status === 'string' ? statusTooltipValue(deployment.status) : undefined);
  add(l10n.t('Type'), (deployment as Record<string, unknown>).deployment_type);
  add(l10n.t('Image version'), deployment.image_version);
  add(l10n.t('Repository'), deployment.source_config?.repo_url);
  add(l10n.t('Ref'), deployment.source_revision_config?.repo_ref);
  if (deployment.created_at) add(l10n.t('Created'), formatTime(deployment.created_at, locale));
  if (deployment.updated_at) add(l10n.t('Updated'), formatTime(deployment.updated_at, locale));
  return fields;
}

/** "Awaiting database (AWAITING_DATABASE)", and says so when the extension does not know the value. */
function statusTooltipValue(status: string): string {
  const value = statusWithRawValue(status);
  return value && isUnrecognisedStatus(status) ? l10n.t('{0}, a status this extension does not know', value) : value;
}

/** What a screen reader says for a row. */
export function accessibleLabel(deployment: Deployment): string {
  const parts = [l10n.t('Deployment {0}', deploymentLabel(deployment))];
  if (typeof deployment.status === 'string' && deployment.status.trim()) parts.push(l10n.t('status {0}', statusWords(deployment.status)));
  if (deployment.image_version) parts.push(l10n.t('image version {0}', deployment.image_version));
  return parts.join(', ');
}
