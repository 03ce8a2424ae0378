import * as z from 'zod';
import { InvalidInputError, SchemaError } from './errors';
import { ConnectionOptions, HttpTransport } from './http';
import { PageEnd, pageEnd, PageWalk } from './pagination';
import { buildDeploymentSearchParams, DEFAULT_PAGE_SIZE, DeploymentQuery, validateIntegrationId, validateObjectArgument } from './query';
import { parseJsonBody } from './responses';
import { Deployment, deploymentSchema, deploymentSummarySchema, Repository, repositorySchema, resourceSpecSchema } from './schemas';
import { describeValue, quote } from './text';
import { checkRecord } from './recordCheck';
import * as l10n from '@vscode/l10n';

export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * A listed record that does not match the API contract. It is kept as the
 * server sent it (not validated, not copied), so its details and JSON can
 * still be shown; `problems` name each field path.
 */
interface OffContractRecord {
  /** Position in the server's answer (0-based). */
  readonly index: number;
  /** The record as received. Its fields are not to be trusted. */
  readonly raw: unknown;
  /** Each problem as `field.path: message`, e.g. `id: expected a UUID`, `created_at: expected a string, got a number`. */
  readonly problems: readonly string[];
  /** The record's `id` when it is a non-empty string (even one that is not a UUID). */
  readonly id?: string;
  /** The record's `name` when it is a string, for a label. */
  readonly name?: string;
}

export type InvalidDeployment = OffContractRecord;

/** A listed repository that does not match the contract: never usable to create a deployment. */
export interface InvalidRepository extends OffContractRecord {
  readonly usableForCreate: false;
  /** Why it cannot be used to create a deployment; names the field paths. */
  readonly reason: string;
}

export interface RepositoryListing {
  /** The records that match the contract, in the server's order. */
  repositories: Repository[];
  /** The records that do not, in the server's order. */
  invalid: InvalidRepository[];
}

export interface DeploymentPage {
  /** The records that match the contract, in the server's order. */
  deployments: Deployment[];
  /** The records that do not: shown as such, never dropped silently. */
  invalid: InvalidDeployment[];
  /** The offset this page was requested with. */
  requestedOffset: number;
  limit: number;
  /** The response `offset`: pass it verbatim to get the next page. An opaque cursor: it need not grow. */
  nextOffset: number;
  /** False once an end rule applies (see `PageEnd`). */
  mayHaveMore: boolean;
  /** Which end rule applied, when one did. */
  end?: PageEnd;
}

/** Problems shown per off-contract record. */
const MAX_RECORD_PROBLEMS = 20;

/** The control plane's API: every view and command goes through one of these. */
export class ControlPlaneClient {
  private readonly http: HttpTransport;

  constructor(options: ConnectionOptions) {
    this.http = new HttpTransport(options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
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
      const body = parseJsonBody(response, this.http.secrets);
      if (!Array.isArray(body)) {
        throw new SchemaError(l10n.t('The repository listing'), [`${l10n.t('(the whole answer)')}: ${l10n.t('expected an array, got {0}', describeValue(body))}`]);
      }
      const { valid: repositories, invalid: offContractRecords } = splitRecords(repositorySchema, body);
      const invalid = offContractRecords.map(
        (record): InvalidRepository => ({
          ...record,
          usableForCreate: false,
          reason: l10n.t(
            'It does not match the API contract ({0}), so it cannot be used to create a deployment.',
            `${record.problems.slice(0, 3).join('; ')}${record.problems.length > 3 ? '; …' : ''}`,
          ),
        }),
      );
      return { repositories, invalid };
    } catch (error) {
      throw this.http.seal(error);
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
      const { resources, offset: nextOffset } = listingEnvelope(parseJsonBody(response, this.http.secrets));
      const { valid, invalid } = splitRecords(deploymentSummarySchema, resources);
      // A listed record's resource_spec is checked when it is shown (resourceSpecProblems).
      const deployments = valid as Deployment[];
      const end = pageEnd({ requestedOffset, limit, count: resources.length, nextOffset });
      return {
        deployments,
        invalid,
        requestedOffset,
        limit,
        nextOffset,
        mayHaveMore: end === undefined,
        end,
      };
    } catch (error) {
      throw this.http.seal(error);
    }
  }

  /** Every page from `query.offset` on, until an end rule applies (see `PageEnd`). */
  async *deploymentPages(query: DeploymentQuery = {}, options: CallOptions = {}): AsyncGenerator<DeploymentPage> {
    try {
      validateObjectArgument('query', query);
    } catch (error) {
      throw this.http.seal(error);
    }
    const walk = new PageWalk();
    let offset = query?.offset ?? 0;
    const limit = query?.limit ?? DEFAULT_PAGE_SIZE;
    for (;;) {
      const page = await this.listDeployments({ ...query, limit, offset }, options);
      const end = walk.endOfPage(page);
      page.end = end;
      page.mayHaveMore = end === undefined;
      yield page;
      if (!page.mayHaveMore) return;
      offset = page.nextOffset;
    }
  }

  /** `POST /v2/deployments`; never retried. Answers the created record. */
  async createDeployment(body: Record<string, unknown>, options: CallOptions = {}): Promise<Deployment> {
    try {
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw new InvalidInputError('body', l10n.t('must be an object, got {0}', describeValue(body)));
      }
      const response = await this.http.send({
        method: 'POST',
        path: '/v2/deployments',
        body,
        signal: signalOf(options),
        what: l10n.t('The deployment-creation endpoint'),
      });
      return validate(deploymentSchema, parseJsonBody(response, this.http.secrets), l10n.t('The created deployment'), 'deployment');
    } catch (error) {
      throw this.http.seal(error);
    }
  }

  dispose(): Promise<void> {
    return this.http.close();
  }
}

/** The call's options checked (an object, or nothing), and their signal, checked too. */
function signalOf(options: CallOptions | undefined): AbortSignal | undefined {
  validateObjectArgument('options', options);
  const signal = options?.signal;
  if (signal === undefined || signal === null) return undefined;
  if (typeof (signal as AbortSignal).aborted !== 'boolean' || typeof (signal as AbortSignal).addEventListener !== 'function') {
    throw new InvalidInputError('signal', l10n.t('must be an AbortSignal, got {0}', describeValue(signal)));
  }
  return signal;
}

/** `{resources: [...], offset}`: the envelope is checked; records one by one, by the caller. */
function listingEnvelope(body: unknown): { resources: unknown[]; offset: number } {
  const problems: string[] = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new SchemaError(l10n.t('The deployment listing'), [`${l10n.t('(the whole answer)')}: ${l10n.t('expected an object, got {0}', describeValue(body))}`]);
  }
  const { resources, offset } = body as Record<string, unknown>;
  if (!Array.isArray(resources)) problems.push(`resources: ${l10n.t('expected an array, got {0}', describeValue(resources))}`);
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    problems.push(`offset: ${l10n.t('expected a whole number of 0 or more, got {0}', describeValue(offset))}`);
  }
  if (problems.length > 0) throw new SchemaError(l10n.t('The deployment listing'), problems);
  return { resources: resources as unknown[], offset: offset as number };
}

/** The records that match the schema, kept as they came, and the others with their problems; both in the server's order. */
function splitRecords<T extends z.ZodType>(schema: T, records: readonly unknown[]): { valid: z.infer<T>[]; invalid: OffContractRecord[] } {
  const valid: z.infer<T>[] = [];
  const invalid: OffContractRecord[] = [];
  for (let index = 0; index < records.length; index++) {
    const raw = records[index];
    const result = checkRecord(schema, raw);
    if (result.success) valid.push(result.data);
    else invalid.push(offContract(raw, index, recordProblems(result.error)));
  }
  return { valid, invalid };
}

function offContract(raw: unknown, index: number, problems: readonly string[]): OffContractRecord {
  const record = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  const id = typeof record?.id === 'string' && record.id ? record.id : undefined;
  const name = typeof record?.name === 'string' ? record.name : undefined;
  return { index, raw, problems, id, name };
}

/** Zod's issues as `field.path: message`, relative to the record; the messages are ours (see issueText.ts). */
function recordProblems(error: z.ZodError): string[] {
  const problems = error.issues
    .slice(0, MAX_RECORD_PROBLEMS)
    .map((issue) => issueLine('', issue, l10n.t('(the record)')));
  if (error.issues.length > MAX_RECORD_PROBLEMS) problems.push(l10n.t('…and {0} more', error.issues.length - MAX_RECORD_PROBLEMS));
  return problems;
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
  const result = checkRecord(resourceSpecSchema, spec);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => issueLine('source_config.resource_spec', issue));
  checkedSpecs.set(spec, problems);
  return problems;
}

function validate<T extends z.ZodType>(schema: T, data: unknown, what: string, root: string): z.infer<T> {
  const result = checkRecord(schema, data);
  if (result.success) return result.data;
  throw new SchemaError(
    what,
    result.error.issues.map((issue) => issueLine(root, issue)),
  );
}

/** One zod issue as a problem line: `source_config.resource_spec.cpu: expected a number, got a string`. */
function issueLine(root: string, issue: z.core.$ZodIssue, whole?: string): string {
  return `${formatPath(root, issue.path, whole)}: ${quote(issue.message, 160)}`;
}

/** `resources[3].source_config.resource_spec.cpu` */
function formatPath(root: string, path: readonly PropertyKey[], whole = l10n.t('(the whole answer)')): string {
  let text = root;
  for (const part of path.slice(0, 20)) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text ? `.${quote(String(part), 60)}` : quote(String(part), 60);
  }
  return text || whole;
}
