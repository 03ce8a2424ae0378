/**
 * The JSON schema of a deployment-creation body, made from the same zod schemas the client
 * validates records with, so the payload editor's completion, hover and validation cannot drift
 * from the client. Generated at build time (esbuild.js writes dist/payload.schema.json); objects
 * stay open, because real servers need fields the contract does not show.
 */
import * as z from 'zod/mini';
import { DEPLOYMENT_TYPES } from '../api';
import { deploymentSchema } from '../api/schemas';

/**
 * Fields the control plane sets: not part of a creation body, so the editor does not offer them (a body
 * copied from a record may still carry them: objects stay open).
 */
const SERVER_FIELDS = {
  id: true,
  tenant_id: true,
  created_at: true,
  updated_at: true,
  latest_revision_id: true,
  active_revision_id: true,
  status: true,
} as const;

export function payloadJsonSchema(): Record<string, unknown> {
  const body = z.extend(z.omit(deploymentSchema, SERVER_FIELDS), {
    deployment_type: z.nullish(z.enum(DEPLOYMENT_TYPES)).register(z.globalRegistry, { description: 'Deployment type: dev_free, dev or prod.' }),
  });
  const schema = z.toJSONSchema(body, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-7',
    // JSON schema patterns have no flags: the UUID pattern (case-insensitive in zod) must spell both cases.
    override: ({ jsonSchema }) => {
      if (jsonSchema.pattern) jsonSchema.pattern = jsonSchema.pattern.replaceAll('[0-9a-f]', '[0-9a-fA-F]');
    },
  });
  return {
    ...schema,
    title: 'Deployment creation body',
    description: 'The body of POST /v2/deployments. source_config.integration_id, source_config.repo_url and source_revision_config.repo_ref come from the repository record.',
  };
}
