import * as l10n from '@vscode/l10n';
import { clientBaseUrl } from './baseUrl';
import { ControlPlaneError, RecordProblem } from './errors';
import { ConnectionOptions, HttpRequest, HttpTransport } from './http';
import { PageEnd, pageEnd, PageWalk, walkPages } from './pagination';
import { buildDeploymentSearchParams, DeploymentQuery, validateIntegrationId } from './query';
import { Deployment, deploymentSchema, deploymentSummarySchema, listingSchema, problemsOf, Repository, repositoryListingSchema, repositorySchema, resourceSpecSchema } from './schemas';
import type { ZodMiniType } from 'zod/mini';

export interface CallOptions {
  signal?: AbortSignal;
}

/** A listed record that does not match the API contract, kept as the server sent it (not copied) to be shown as such. */
export interface OffContractDeployment {
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
export interface OffContractRepository extends OffContractDeployment {
  readonly usableForCreate: false;
  /** Why it cannot be used to create a deployment; names the field paths. */
  readonly reason: string;
}

/** The records that match the contract and those that do not, each in the server's order. */
export interface RepositoryListing {
  repositories: Repository[];
  offContract: OffContractRepository[];
}

export interface DeploymentPage {
  /** The records that match the contract and those that do not (shown as such, never dropped), each in the server's order. */
  deployments: Deployment[];
  offContract: OffContractDeployment[];
  requestedOffset: number;
  limit: number;
  /** The response `offset`: pass it verbatim to get the next page. An opaque cursor: it need not grow. */
  nextOffset: number;
  /** False once an end rule applies; `end` says which. */
  mayHaveMore: boolean;
  end?: PageEnd;
}

/** The control plane's API: every view and command goes through one of these. Every error it throws is a ControlPlaneError, its message redacted. */
export class ControlPlaneClient {
  private readonly http: HttpTransport;

  constructor(private readonly options: ConnectionOptions) {
    this.http = new HttpTransport(options);
  }

  /** The repositories of an integration; records off the contract are listed apart, with their problems. */
  async listRepositories(integrationId: string, options: CallOptions = {}): Promise<RepositoryListing> {
    const id = validateIntegrationId(integrationId);
    const path = `/v1/integrations/forge/codehost/${encodeURIComponent(id)}/repos`;
    const request = { method: 'GET', path, signal: options.signal, what: l10n.t('Integration {0}', id) } as const;
    const body = await this.json(request, repositoryListingSchema, l10n.t('The repository listing'));
    const { valid: repositories, offContract } = splitRecords<Repository>(repositorySchema, body as unknown[]);
    return {
      repositories,
      offContract: offContract.map((record): OffContractRepository => {
        const shown = record.problems.slice(0, 3).map(({ path, message }) => `${path || l10n.t('(the record)')}: ${message}`);
        const problems = shown.join('; ') + (record.problems.length > 3 ? '; …' : '');
        const reason = l10n.t('It does not match the API contract ({0}), so it cannot be used to create a deployment.', problems);
        return { ...record, usableForCreate: false, reason };
      }),
    };
  }

  /** One page of `GET /v2/deployments`. Its end rules are the ones a single page shows (see `pageEnd`). */
  async listDeployments(query: DeploymentQuery = {}, options: CallOptions = {}): Promise<DeploymentPage> {
    const params = buildDeploymentSearchParams(query);
    const limit = Number(params.get('limit'));
    const requestedOffset = Number(params.get('offset'));
    const what = l10n.t('The deployment listing');
    const request = { method: 'GET', path: '/v2/deployments', query: params, signal: options.signal, what } as const;
    const { resources, offset: nextOffset } = (await this.json(request, listingSchema, what).catch(async (error: unknown) => {
      throw isWebPage(error) ? await this.webPageError(error, request.signal) : error;
    })) as { resources: unknown[]; offset: number };
    // A listed record's resource_spec is checked when it is shown (resourceSpecProblems).
    const { valid, offContract } = splitRecords<Deployment>(deploymentSummarySchema, resources);
    const end = pageEnd({ requestedOffset, limit, count: resources.length, nextOffset });
    return { deployments: valid, offContract, requestedOffset, limit, nextOffset, mayHaveMore: end === undefined, end };
  }

  /**
   * Every page from `query.offset` on, each requested when the one before was consumed, until an end rule applies
   * (see `PageEnd`). `walk`: the listing to go on with (its offsets requested and records seen), after a page failed.
   */
  deploymentPages(query: DeploymentQuery = {}, options: CallOptions & { walk?: PageWalk } = {}): AsyncGenerator<DeploymentPage> {
    // The first call checks the query; the next ones change only its offset.
    const fetchPage = (previous?: DeploymentPage) =>
      this.listDeployments(previous ? { ...query, limit: previous.limit, offset: previous.nextOffset } : query, options);
    return walkPages(fetchPage, options?.walk);
  }

  /** `POST /v2/deployments`; never retried. Answers the created record. */
  async createDeployment(body: Record<string, unknown>, options: CallOptions = {}): Promise<Deployment> {
    const what = l10n.t('The deployment-creation endpoint');
    const request = { method: 'POST', path: '/v2/deployments', body, signal: options.signal, what } as const;
    return (await this.json(request, deploymentSchema, l10n.t('The created deployment'))) as Deployment;
  }

  dispose(): Promise<void> {
    return this.http.close();
  }

  /**
   * A listing answered with a web page (200, HTML): a self-hosted control plane serves its web app at every path but
   * the API's prefix. Tries the base URL with that prefix once (the same origin, so the key may go there) and says
   * whether it answers the API.
   */
  private async webPageError(page: ControlPlaneError, signal: AbortSignal | undefined): Promise<ControlPlaneError> {
    const base = new URL(this.options.baseUrl.trim());
    const suggestion = `${base.origin}${base.pathname.replace(/\/+$/, '')}${API_PREFIX}`;
    if (base.pathname.replace(/\/+$/, '').endsWith(API_PREFIX)) return page;
    const probe = new HttpTransport({ ...this.options, baseUrl: suggestion, retry: { maxAttempts: 1 } });
    const answers = await probe
      .send({ method: 'GET', path: '/v2/deployments', query: new URLSearchParams({ limit: '1', offset: '0' }), signal, what: '' })
      .then((body) => problemsOf(listingSchema, body).length === 0, () => false)
      .finally(() => probe.close());
    const webPage = { baseUrl: clientBaseUrl(this.options.baseUrl), suggestion, answers };
    return new ControlPlaneError('invalidResponse', { status: page.status, contentType: page.contentType, snippet: page.snippet, webPage }, this.http.redactor);
  }

  /** The JSON answer to `request`, checked against `schema`; a `schema` error naming `what` when it does not match. */
  private async json(request: HttpRequest, schema: ZodMiniType, what: string): Promise<unknown> {
    const body = await this.http.send(request);
    const problems = problemsOf(schema, body);
    if (problems.length > 0) throw new ControlPlaneError('schema', { what, problems }, this.http.redactor);
    return body;
  }
}

/** Where a self-hosted control plane serves its API (DESIGN.md, fourth round). */
const API_PREFIX = '/api-host';

/** A 200 answer that is an HTML page, not JSON. */
function isWebPage(error: unknown): error is ControlPlaneError {
  return error instanceof ControlPlaneError && error.kind === 'invalidResponse' && error.status === 200 && !error.binary && /html/i.test(error.contentType ?? '');
}


/** The records that match the schema, as the server sent them, and the others with their problems; both in the server's order. */
function splitRecords<T>(schema: ZodMiniType, records: readonly unknown[]): { valid: T[]; offContract: OffContractDeployment[] } {
  const valid: T[] = [];
  const offContract: OffContractDeployment[] = [];
  records.forEach((raw, index) => {
    const problems = problemsOf(schema, raw);
    if (problems.length === 0) return valid.push(raw as T);
    const { id, name } = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    offContract.push({ index, raw, problems, id: typeof id === 'string' && id ? id : undefined, name: typeof name === 'string' ? name : undefined });
  });
  return { valid, offContract };
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
