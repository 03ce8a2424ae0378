/**
 * The words the interface uses for the API's field names, so a tooltip, a detail row or a server's
 * reason says "Default branch" where the API says `default_branch`, and a problem names a field as its
 * detail row does. Raw names stay in the JSON.
 */
import * as l10n from '@vscode/l10n';
import type { RecordProblem } from '../api';

const words = (): Record<string, string> => ({
  name: l10n.t('Name'),
  id: l10n.t('ID'),
  owner: l10n.t('Owner'),
  url: l10n.t('URL'),
  default_branch: l10n.t('Default branch'),
  host_integration_id: l10n.t('Integration ID'),
  status: l10n.t('Status'),
  tenant_id: l10n.t('Tenant ID'),
  created_at: l10n.t('Created'),
  updated_at: l10n.t('Updated'),
  latest_revision_id: l10n.t('Latest revision'),
  active_revision_id: l10n.t('Active revision'),
  image_version: l10n.t('Image version'),
  deployment_type: l10n.t('Deployment type'),
  remote_reconciled: l10n.t('Remote reconciled'),
  tag_value_ids: l10n.t('Tag value IDs'),
  secrets: l10n.t('Secrets'),
  secret_references: l10n.t('Secret references'),
  source: l10n.t('Source'),
  source_config: l10n.t('Source'),
  source_revision_config: l10n.t('Revision'),
  integration_id: l10n.t('Integration'),
  repo_url: l10n.t('Repository URL'),
  repo_ref: l10n.t('Ref'),
  repo_commit_sha: l10n.t('Commit SHA'),
  build_on_push: l10n.t('Build on push'),
  custom_url: l10n.t('Custom URL'),
  listener_id: l10n.t('Listener'),
  listener_config: l10n.t('Listener config'),
  k8s_namespace: l10n.t('Kubernetes namespace'),
  install_command: l10n.t('Install command'),
  build_command: l10n.t('Build command'),
  graph_config_path: l10n.t('Config path'),
  image_uri: l10n.t('Image URI'),
  source_tarball_path: l10n.t('Source tarball'),
  resource_spec: l10n.t('Resources'),
  secret_name: l10n.t('Secret name'),
  secret_key: l10n.t('Secret key'),
  // A component's fields, without its prefix (`queue_`, `db_`…).
  min_scale: l10n.t('Min scale'),
  max_scale: l10n.t('Max scale'),
  cpu: l10n.t('CPU'),
  cpu_limit: l10n.t('CPU limit'),
  memory_mb: l10n.t('Memory'),
  memory_limit_mb: l10n.t('Memory limit'),
  storage_gi: l10n.t('Storage'),
  max_connections: l10n.t('Max connections'),
  // Kubernetes' own names (volume mounts, containers).
  mountPath: l10n.t('Mount path'),
  subPath: l10n.t('Sub path'),
  subPathExpr: l10n.t('Sub path expression'),
  mountPropagation: l10n.t('Mount propagation'),
  readOnly: l10n.t('Read only'),
  image: l10n.t('Image'),
  imagePullPolicy: l10n.t('Image pull policy'),
  workingDir: l10n.t('Working directory'),
  restartPolicy: l10n.t('Restart policy'),
});

/** One API field name in words: `default_branch` → "Default branch"; unknown ones spaced and capitalised. */
export function fieldWords(field: string): string {
  const known = words()[field];
  if (known) return known;
  const spaced = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_+/g, ' ').trim();
  return spaced ? spaced.charAt(0).toUpperCase() + spaced.slice(1) : field;
}

/**
 * A field path as a server's reason or the client names it (`body.source_revision_config.repo_ref`,
 * `secrets[0].value`) in words, the request part left out: "Revision › Ref", "Secrets › #1 › Value".
 */
export function fieldPathWords(path: string): string {
  const parts = path.split(/[.[\]]+/).filter((part) => part !== '');
  if (['body', 'query', 'path', 'header'].includes(parts[0] ?? '')) parts.shift();
  return parts.map((part) => (/^\d+$/.test(part) ? `#${Number(part) + 1}` : fieldWords(part))).join(' › ');
}

/** Where an off-contract record's problem is, in words: "Source › Repository URL", or "(the record)". */
export function problemWords(problem: RecordProblem): string {
  return problem.path ? fieldPathWords(problem.path) : l10n.t('(the record)');
}

/** A problem as one line of text: `source_config.repo_url: expected a string, got a number`. */
export function problemLine(problem: RecordProblem): string {
  return `${problem.path || l10n.t('(the record)')}: ${problem.message}`;
}
