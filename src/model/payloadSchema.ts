/**
 * The JSON schema of a deployment-creation body, made from the same zod schemas the client
 * validates records with, so the payload editor's completion, hover and validation cannot drift
 * from the client. Generated at build time (esbuild.js writes dist/payload.schema.json); objects
 * stay open, because real servers need fields the contract does not show.
 */
import * as z from 'zod/mini';
import { deploymentSchema } from '../api/schemas';
import { KNOWN_DEPLOYMENT_TYPES } from './createPayload';

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

/** Known values offered by completion, any other string accepted: servers add values (a type such as `dev_zero`). */
const openEnum = (values: readonly [string, ...string[]], description: string) =>
  z.optional(z.union([z.enum(values), z.string()])).register(z.globalRegistry, { description });

export function payloadJsonSchema(): Record<string, unknown> {
  // The type goes in source_config, where the real service reads it (a top-level one is still accepted: objects stay open).
  const sourceConfig = z.extend(deploymentSchema.shape.source_config.def.innerType.def.innerType, {
    deployment_type: openEnum(
      KNOWN_DEPLOYMENT_TYPES,
      'Deployment type: dev_free, dev, prod, dev_zero, dev_free_zero or another your server takes. The server default is prod; a type cannot be changed after creation.',
    ),
  });
  const body = z.extend(z.omit(deploymentSchema, SERVER_FIELDS), {
    source: openEnum(['github', 'external_docker'], 'What the deployment is built from: github for a repository (required by the real service).'),
    source_config: z.nullish(sourceConfig),
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
