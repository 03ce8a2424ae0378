/**
 * The words the interface uses for the API's field names, so a tooltip, a detail row or a
 * server's reason says "Default branch" where the API says `default_branch`. Raw names stay
 * in tooltips' raw lines and in the JSON. Any name not listed reads as words too.
 */
const WORDS: Record<string, string> = {
  name: 'Name',
  id: 'ID',
  owner: 'Owner',
  url: 'URL',
  default_branch: 'Default branch',
  host_integration_id: 'Integration ID',
  status: 'Status',
  tenant_id: 'Tenant ID',
  created_at: 'Created',
  updated_at: 'Updated',
  latest_revision_id: 'Latest revision',
  active_revision_id: 'Active revision',
  image_version: 'Image version',
  deployment_type: 'Deployment type',
  remote_reconciled: 'Remote reconciled',
  tag_value_ids: 'Tag value IDs',
  secrets: 'Secrets',
  secret_references: 'Secret references',
  source: 'Source',
  source_config: 'Source',
  source_revision_config: 'Revision',
  integration_id: 'Integration ID',
  repo_url: 'Repository URL',
  repo_ref: 'Ref',
  repo_commit_sha: 'Commit',
  build_on_push: 'Build on push',
  custom_url: 'Custom URL',
  listener_id: 'Listener ID',
  listener_config: 'Listener',
  k8s_namespace: 'Kubernetes namespace',
  install_command: 'Install command',
  build_command: 'Build command',
  graph_config_path: 'Graph config path',
  image_uri: 'Image URI',
  source_tarball_path: 'Source tarball path',
  resource_spec: 'Resources',
};

/** One API field name in words: `default_branch` → "Default branch"; unknown ones spaced and capitalised. */
export function fieldWords(field: string): string {
  const known = WORDS[field];
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
