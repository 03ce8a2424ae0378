import * as z from 'zod';
import { SchemaError } from './errors';
import { ConnectionOptions, HttpTransport } from './http';
import { PageEnd, pageEnd } from './pagination';
import { buildDeploymentSearchParams, DEFAULT_PAGE_SIZE, DeploymentQuery, validateIntegrationId } from './query';
import { parseJsonBody } from './responses';
import { Deployment, deploymentListSchema, deploymentSchema, Repository, repositorySchema, resourceSpecSchema } from './schemas';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface DeploymentPage {
  deployments: Deployment[];
  /** The offset this page was requested with. */
  requestedOffset: number;
  limit: number;
  /** The response `offset`: pass it verbatim to get the next page. */
  nextOffset: number;
  /** False once an end rule applies (empty or short page, offset not advancing). */
  mayHaveMore: boolean;
  /** Which end rule applied, when one did. */
  end?: PageEnd;
}

const repositoryListSchema = z.array(repositorySchema);

/** The control plane's API: every view and command goes through one of these. */
export class ControlPlaneClient {
  private readonly http: HttpTransport;

  constructor(options: ConnectionOptions) {
    this.http = new HttpTransport(options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  async listRepositories(integrationId: string, options: CallOptions = {}): Promise<Repository[]> {
    const id = validateIntegrationId(integrationId);
    const response = await this.http.send({
      method: 'GET',
      path: `/v1/integrations/forge/codehost/${encodeURIComponent(id)}/repos`,
      signal: options.signal,
      what: `Integration ${id}`,
    });
    return validate(repositoryListSchema, parseJsonBody(response), 'repository listing', 'repositories');
  }

  /** One page of `GET /v2/deployments`. */
  async listDeployments(query: DeploymentQuery = {}, options: CallOptions = {}): Promise<DeploymentPage> {
    const params = buildDeploymentSearchParams(query);
    const limit = Number(params.get('limit'));
    const requestedOffset = Number(params.get('offset'));
    const response = await this.http.send({
      method: 'GET',
      path: '/v2/deployments',
      query: params,
      signal: options.signal,
      what: 'The deployment listing',
    });
    const body = validate(deploymentListSchema, parseJsonBody(response), 'deployment listing', '');
    const deployments = body.resources as Deployment[];
    const end = pageEnd({ requestedOffset, limit, count: deployments.length, nextOffset: body.offset });
    return { deployments, requestedOffset, limit, nextOffset: body.offset, mayHaveMore: end === undefined, end };
  }

  /** Every page from `query.offset` on, until an end rule applies. */
  async *deploymentPages(query: DeploymentQuery = {}, options: CallOptions = {}): AsyncGenerator<DeploymentPage> {
    let offset = query.offset ?? 0;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    for (;;) {
      const page = await this.listDeployments({ ...query, limit, offset }, options);
      yield page;
      if (!page.mayHaveMore) return;
      offset = page.nextOffset;
    }
  }

  /** `POST /v2/deployments`; never retried. Answers the created record. */
  async createDeployment(body: Record<string, unknown>, options: CallOptions = {}): Promise<Deployment> {
    const response = await this.http.send({
      method: 'POST',
      path: '/v2/deployments',
      body,
      signal: options.signal,
      what: 'The deployment-creation endpoint',
    });
    return validate(deploymentSchema, parseJsonBody(response), 'created deployment', 'deployment');
  }

  dispose(): Promise<void> {
    return this.http.close();
  }
}

const checkedSpecs = new WeakMap<object, readonly string[]>();

/**
 * Validates the `resource_spec` of a listed deployment in full (listings check
 * only that it is an object). Answers the problems, each with its field path;
 * empty when it matches the contract or is absent. Cached per record.
 */
export function resourceSpecProblems(deployment: Deployment): readonly string[] {
  const spec = deployment.source_config?.resource_spec;
  if (!spec || typeof spec !== 'object') return [];
  const known = checkedSpecs.get(spec);
  if (known) return known;
  const result = resourceSpecSchema.safeParse(spec);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${formatPath('source_config.resource_spec', issue.path)}: ${issue.message}`);
  checkedSpecs.set(spec, problems);
  return problems;
}

function validate<T extends z.ZodType>(schema: T, data: unknown, what: string, root: string): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new SchemaError(
    what,
    result.error.issues.map((issue) => `${formatPath(root, issue.path)}: ${issue.message}`),
  );
}

/** `resources[3].source_config.resource_spec.cpu` */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text || '(the whole answer)';
}
