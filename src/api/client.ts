import * as l10n from '@vscode/l10n';
import { InvalidInputError, RecordProblem, SchemaError, sealError } from './errors';
import { ConnectionOptions, HttpTransport } from './http';
import { PageEnd, pageEnd, PageWalk } from './pagination';
import { buildDeploymentSearchParams, DeploymentQuery, validateIntegrationId, validateObjectArgument } from './query';
import { parseJsonBody } from './responses';
import { Deployment, deploymentSchema, deploymentSummarySchema, listingSchema, problemsOf, Repository, repositoryListingSchema, repositorySchema, resourceSpecSchema } from './schemas';
import { describeValue } from './text';

export interface CallOptions {
  signal?: AbortSignal;
}

/** A listed record that does not match the API contract, kept as the server sent it (not copied) to be shown as such. */
export interface InvalidDeployment {
  /** Position in the server's answer (0-based). */
  readonly index: number;
  /** The record as received. Its fields are not to be trusted. */
  readonly raw: unknown;
  readonly problems: readonly RecordProblem[];
  /** The record's `id` when it is a non-empty string (even one that is not a UUID), and its `name` when a string. */
  readonly id?: string;
  readonly name?: string;
}

/** A listed repository that does not match the contract: never usable to create a deployment. */
export interface InvalidRepository extends InvalidDeployment {
  readonly usableForCreate: false;
  /** Why it cannot be used to create a deployment; names the field paths. */
  readonly reason: string;
}

/** The records that match the contract and those that do not, each in the server's order. */
export interface RepositoryListing {
  repositories: Repository[];
  invalid: InvalidRepository[];
}

export interface DeploymentPage {
  /** The records that match the contract and those that do not (shown as such, never dropped), each in the server's order. */
  deployments: Deployment[];
  invalid: InvalidDeployment[];
  requestedOffset: number;
  limit: number;
  /** The response `offset`: pass it verbatim to get the next page. An opaque cursor: it need not grow. */
  nextOffset: number;
  /** False once an end rule applies; `end` says which. */
  mayHaveMore: boolean;
  end?: PageEnd;
}

/** The control plane's API: every view and command goes through one of these. */
export class ControlPlaneClient {
  private readonly http: HttpTransport;

  constructor(options: ConnectionOptions) {
    this.http = new HttpTransport(options);
  }

  /** The repositories of an integration; records off the contract are listed apart, with their problems. */
  async listRepositories(integrationId: string, options: CallOptions = {}): Promise<RepositoryListing> {
    try {
      const id = validateIntegrationId(integrationId);
      const response = await this.http.send({
        method: 'GET',
        path: `/v1/integrations/forge/codehost/${encodeURIComponent(id)}/repos`,
        signal: signalOf(options),
        what: l10n.t('Integration {0}', id),
      });
      const body = parseJsonBody(response, this.http.redactor);
      const envelope = problemsOf(repositoryListingSchema, body);
      if (envelope.length > 0) throw new SchemaError(l10n.t('The repository listing'), envelope);
      const { valid: repositories, invalid: offContractRecords } = splitRecords<Repository>(repositorySchema, body as unknown[]);
      const invalid = offContractRecords.map((record): InvalidRepository => {
        const shown = record.problems.slice(0, 3).map(({ path, message }) => `${path || l10n.t('(the record)')}: ${message}`);
        const problems = shown.join('; ') + (record.problems.length > 3 ? '; …' : '');
        const reason = l10n.t('It does not match the API contract ({0}), so it cannot be used to create a deployment.', problems);
        return { ...record, usableForCreate: false, reason };
      });
      return { repositories, invalid };
    } catch (error) {
      throw sealError(error, this.http.redactor);
    }
  }

  /** One page of `GET /v2/deployments`. Its end rules are the ones a single page shows (see `pageEnd`). */
  async listDeployments(query: DeploymentQuery = {}, options: CallOptions = {}): Promise<DeploymentPage> {
    try {
      const params = buildDeploymentSearchParams(query);
      const limit = Number(params.get('limit'));
      const requestedOffset = Number(params.get('offset'));
      const response = await this.http.send({
        method: 'GET',
        path: '/v2/deployments',
        query: params,
        signal: signalOf(options),
        what: l10n.t('The deployment listing'),
      });
      const body = parseJsonBody(response, this.http.redactor);
      const envelope = problemsOf(listingSchema, body);
      if (envelope.length > 0) throw new SchemaError(l10n.t('The deployment listing'), envelope);
      const { resources, offset: nextOffset } = body as { resources: unknown[]; offset: number };
      // A listed record's resource_spec is checked when it is shown (resourceSpecProblems).
      const { valid, invalid } = splitRecords<Deployment>(deploymentSummarySchema, resources);
      const end = pageEnd({ requestedOffset, limit, count: resources.length, nextOffset });
      return { deployments: valid, invalid, requestedOffset, limit, nextOffset, mayHaveMore: end === undefined, end };
    } catch (error) {
      throw sealError(error, this.http.redactor);
    }
  }

  /** Every page from `query.offset` on, until an end rule applies (see `PageEnd`). */
  async *deploymentPages(query: DeploymentQuery = {}, options: CallOptions = {}): AsyncGenerator<DeploymentPage> {
    const walk = new PageWalk();
    // The first call checks the query; the next ones change only its offset.
    let page = await this.listDeployments(query, options);
    for (;;) {
      page.end = walk.endOfPage(page);
      page.mayHaveMore = page.end === undefined;
      yield page;
      if (!page.mayHaveMore) return;
      page = await this.listDeployments({ ...query, limit: page.limit, offset: page.nextOffset }, options);
    }
  }

  /** `POST /v2/deployments`; never retried. Answers the created record. */
  async createDeployment(body: Record<string, unknown>, options: CallOptions = {}): Promise<Deployment> {
    try {
      validateObjectArgument('body', body, { required: true });
      const response = await this.http.send({
        method: 'POST',
        path: '/v2/deployments',
        body,
        signal: signalOf(options),
        what: l10n.t('The deployment-creation endpoint'),
      });
      const created = parseJsonBody(response, this.http.redactor);
      const problems = problemsOf(deploymentSchema, created);
      if (problems.length > 0) throw new SchemaError(l10n.t('The created deployment'), problems);
      return created as Deployment;
    } catch (error) {
      throw sealError(error, this.http.redactor);
    }
  }

  dispose(): Promise<void> {
    return this.http.close();
  }
}

/** The call's options checked (an object, or nothing), and their signal, checked too. */
function signalOf(options: CallOptions | undefined): AbortSignal | undefined {
  validateObjectArgument('options', options);
  const signal: unknown = options?.signal;
  if (signal === undefined || signal === null || signal instanceof AbortSignal) return signal ?? undefined;
  throw new InvalidInputError('signal', l10n.t('must be an AbortSignal, got {0}', describeValue(signal)));
}

/** The records that match the schema, as the server sent them, and the others with their problems; both in the server's order. */
function splitRecords<T>(schema: Parameters<typeof problemsOf>[0], records: readonly unknown[]): { valid: T[]; invalid: InvalidDeployment[] } {
  const valid: T[] = [];
  const invalid: InvalidDeployment[] = [];
  records.forEach((raw, index) => {
    const problems = problemsOf(schema, raw);
    if (problems.length === 0) return valid.push(raw as T);
    const { id, name } = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    invalid.push({ index, raw, problems, id: typeof id === 'string' && id ? id : undefined, name: typeof name === 'string' ? name : undefined });
  });
  return { valid, invalid };
}

/**
 * The problems of a listed deployment's `resource_spec`, validated in full when it is shown (a listing
 * checks only that it is an object); empty when it matches the contract or is absent.
 */
export function resourceSpecProblems(deployment: Deployment): readonly RecordProblem[] {
  const spec = deployment.source_config?.resource_spec;
  if (!spec) return [];
  return problemsOf(resourceSpecSchema, spec, ['source_config', 'resource_spec']);
}
