/**
 * The words the interface uses for the API's field names, so a tooltip, a detail row or a
 * server's reason says "Default branch" where the API says `default_branch`. Raw names stay
 * in tooltips' raw lines and in the JSON. Any name not listed reads as words too.
 */
import { t, translated } from '../api/l10n';

const words = translated((): Record<string, string> => ({
  name: t('Name'),
  id: t('ID'),
  owner: t('Owner'),
  url: t('URL'),
  default_branch: t('Default branch'),
  host_integration_id: t('Integration ID'),
  status: t('Status'),
  tenant_id: t('Tenant ID'),
  created_at: t('Created'),
  updated_at: t('Updated'),
  latest_revision_id: t('Latest revision'),
  active_revision_id: t('Active revision'),
  image_version: t('Image version'),
  deployment_type: t('Deployment type'),
  remote_reconciled: t('Remote reconciled'),
  tag_value_ids: t('Tag value IDs'),
  secrets: t('Secrets'),
  secret_references: t('Secret references'),
  source: t('Source'),
  source_config: t('Source'),
  source_revision_config: t('Revision'),
  integration_id: t('Integration ID'),
  repo_url: t('Repository URL'),
  repo_ref: t('Ref'),
  repo_commit_sha: t('Commit'),
  build_on_push: t('Build on push'),
  custom_url: t('Custom URL'),
  listener_id: t('Listener ID'),
  listener_config: t('Listener'),
  k8s_namespace: t('Kubernetes namespace'),
  install_command: t('Install command'),
  build_command: t('Build command'),
  graph_config_path: t('Graph config path'),
  image_uri: t('Image URI'),
  source_tarball_path: t('Source tarball path'),
  resource_spec: t('Resources'),
}));

/** One API field name in words: `default_branch` → "Default branch"; unknown ones spaced and capitalised. */
export function fieldWords(field: string): string {
  const known = words()[field];
  if (known) return known;
  const spaced = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_+/g, ' ').trim();
  return spaced ? spaced.charAt(0).toUpperCase() + spaced.slice(1) : field;
}

/**
 * A field path as a server's reason names it (`body.source_revision_config.repo_ref`, `query.limit`)
 * in words: "Revision › Ref". The request part (`body`, `query`, `path`) is left out.
 */
export function fieldPathWords(path: string): string {
  const parts = path.split('.').filter((part) => part !== '');
  if (['body', 'query', 'path', 'header'].includes(parts[0] ?? '')) parts.shift();
  return parts.map((part) => (/^\d+$/.test(part) ? `#${Number(part) + 1}` : fieldWords(part))).join(' › ');
}

/**
 * A problem line of an off-contract record as the client words it (`source_config.repo_url:
 * expected a string, got a number`): its field path, the path in words, and the reason. A line
 * that names no field (`(the record): …`, `…and 3 more`) keeps its words as they are.
 */
export function problemParts(problem: string): { path: string; words: string; reason: string } {
  const at = problem.indexOf(': ');
  const path = at < 0 ? problem : problem.slice(0, at);
  const reason = at < 0 ? '' : problem.slice(at + 2);
  const words = path.startsWith('(') || path.startsWith('…') ? path : fieldPathWords(path);
  return { path, words, reason };
}
