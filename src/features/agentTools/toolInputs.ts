/**
 * What each language model tool accepts, as zod schemas: the tools check their input with them (VS Code does not
 * check it against `inputSchema`), and package.json's `inputSchema` of each tool is generated from them (a unit test
 * keeps the two equal). Loaded when a tool is first invoked, never at activation (esbuild.js bundles it apart, with zod).
 */
import * as z from 'zod/mini';
import { toDotPath } from 'zod/v4/core';
import { MAX_PAGE_SIZE } from '../../api/query';
import { DEPLOYMENT_TYPES, uuidPattern } from '../../api/vocabulary';

// zod/mini has no messages of its own (no locale loaded): each check says what it expects, for the model to fix its call.
type RawIssue = z.core.$ZodRawIssue;
const got = (input: unknown) => (Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input);
const expected = (what: string) => ({ error: (issue: RawIssue) => `expected ${what}, got ${got(issue.input)}` });
const string = () => z.string(expected('text'));
const uuid = (what: string) => string().check(z.regex(uuidPattern, { error: () => `expected ${what} (a UUID)` }));
const int = (min: number, max?: number) => {
  const range = max === undefined ? `a whole number of ${min} or more` : `a whole number from ${min} to ${max}`;
  return z.int(expected(range)).check(z.minimum(min, { error: () => `expected ${range}` }), ...(max === undefined ? [] : [z.maximum(max, { error: () => `expected ${range}` })]));
};
const array = <T extends z.ZodMiniType>(item: T) => z.array(item, expected('an array'));
const object = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue: RawIssue) =>
      issue.code === 'unrecognized_keys' ? `unknown field ${(issue as { keys?: string[] }).keys?.join(', ')}: the tool takes only ${Object.keys(shape).join(', ') || 'no fields'}` : `expected an object, got ${got(issue.input)}`,
  });
const described = <T extends z.ZodMiniType>(schema: T, description: string): T => {
  z.globalRegistry.add(schema, { description });
  return schema;
};
const text = (description: string) => z.optional(described(string(), description));
const types = () => z.enum(DEPLOYMENT_TYPES, expected(`one of ${DEPLOYMENT_TYPES.join(', ')}`));

const listDeploymentsInput = object({
  name_contains: text('Only deployments whose name contains this text.'),
  status: text('Only deployments with this status, e.g. READY, AWAITING_DATABASE, UNUSED, AWAITING_DELETE, UNKNOWN (any value the server knows).'),
  remote_reconciled: z.optional(described(z.boolean(expected('true or false')), 'Only deployments that are (true) or are not (false) remotely reconciled.')),
  tag_value_ids: z.optional(described(array(string()), 'Only deployments with these tag value IDs.')),
  image_version: text('Only deployments of this image version.'),
  deployment_type: z.optional(described(types(), 'Only deployments of this type.')),
  deployment_ids: z.optional(described(array(uuid('a deployment ID')), 'Only the deployments of these IDs.')),
  limit: z.optional(
    described(int(1, MAX_PAGE_SIZE), `How many deployments to list (1 to ${MAX_PAGE_SIZE}); the user's page size when not given.`),
  ),
  offset: z.optional(
    described(
      int(0),
      'Where to start: 0 (the default) for the first page, else exactly the `next_offset` the previous call answered. Never compute it.',
    ),
  ),
});

const getDeploymentsInput = object({
  deployment_ids: described(
    array(uuid('a deployment ID')).check(z.minLength(1, { error: () => 'expected at least one ID' }), z.maxLength(MAX_PAGE_SIZE, { error: () => `expected at most ${MAX_PAGE_SIZE} IDs` })),
    `The IDs of the deployments to read in full (1 to ${MAX_PAGE_SIZE}).`,
  ),
});

const listRepositoriesInput = object({
  integration_id: z.optional(
    described(uuid('an integration ID'), 'The code-host integration whose repositories to list; every known integration when not given.'),
  ),
  name_contains: text('Only repositories whose owner/name or URL contains this text (case-insensitive).'),
  limit: z.optional(described(int(1, 500), 'At most this many repositories per integration (default 50).')),
});

const workspaceDeploymentsInput = object({});

const createDeploymentInput = object({
  from_workspace_branch: z.optional(
    described(
      z.boolean(),
      "true: deploy the branch checked out in the workspace's git repository (its repository is found among the known integrations' repositories by the git remotes).",
    ),
  ),
  integration_id: z.optional(described(uuid('an integration ID'), 'The code-host integration of the repository (with repository_url).')),
  repository_url: text('The URL of the repository, as the repository listing answers it (with integration_id).'),
  name: text('Name of the new deployment: lowercase letters, digits and "-". Default: from the repository (and branch).'),
  ref: text('Branch, tag or ref to deploy. Default: the workspace branch as the code host names it, or the repository\'s default branch.'),
  deployment_type: z.optional(described(types(), 'Deployment type. Default: dev for a workspace branch; else the defaults setting or the server decides.')),
});

export type ListDeploymentsInput = z.infer<typeof listDeploymentsInput>;
export type GetDeploymentsInput = z.infer<typeof getDeploymentsInput>;
export type ListRepositoriesInput = z.infer<typeof listRepositoriesInput>;
export type CreateDeploymentInput = z.infer<typeof createDeploymentInput>;

export const TOOL_INPUTS = {
  deploymentsExplorer_listDeployments: listDeploymentsInput,
  deploymentsExplorer_getDeployments: getDeploymentsInput,
  deploymentsExplorer_listRepositories: listRepositoriesInput,
  deploymentsExplorer_workspaceDeployments: workspaceDeploymentsInput,
  deploymentsExplorer_createDeployment: createDeploymentInput,
} as const;

export type ToolName = keyof typeof TOOL_INPUTS;

/** The input as the tool's schema reads it, or what is wrong with it, one `field: problem` per issue. */
export function parseInput<T>(schema: z.ZodMiniType<T>, input: unknown): { ok: true; value: T } | { ok: false; problems: string[] } {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.map((issue) => `${toDotPath(issue.path) || '(input)'}: ${issue.message}`) };
}

/** `inputSchema` of a tool, as package.json holds it. */
export function inputJsonSchema(name: ToolName): Record<string, unknown> {
  const { $schema: _schema, ...schema } = z.toJSONSchema(TOOL_INPUTS[name], {
    io: 'input',
    target: 'draft-7',
    // JSON schema patterns have no flags: the UUID pattern (case-insensitive in zod) must spell both cases.
    override: ({ jsonSchema }) => {
      if (jsonSchema.pattern) jsonSchema.pattern = jsonSchema.pattern.replaceAll('[0-9a-f]', '[0-9a-fA-F]');
    },
  }) as Record<string, unknown>;
  return schema;
}
