/**
 * Local stand-in for the deployment control plane: real HTTP (or HTTPS) on loopback, node built-ins only.
 * Behaviour the contract leaves open follows the public service (FastAPI-style errors, X-Api-Key, X-Tenant-Id).
 */
import { EventEmitter } from 'node:events';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  DEPLOYMENT_TYPES,
  LARGE_INTEGRATION,
  ORPHAN_INTEGRATION_ID,
  SAMPLE_IMAGE_VERSIONS,
  SAMPLE_TENANT_ID,
  manyRepositories,
  sampleData,
  type Deployment,
  type Repository,
  type SampleIntegration,
} from './sampleData';

export {
  DEPLOYMENT_TYPES,
  LARGE_INTEGRATION,
  ORPHAN_INTEGRATION_ID,
  SAMPLE_IMAGE_VERSIONS,
  SAMPLE_INTEGRATION_IDS,
  SAMPLE_INTEGRATIONS,
  SAMPLE_STATUSES,
  SAMPLE_TAG_VALUE_IDS,
  SAMPLE_TENANT_ID,
  sampleData,
} from './sampleData';
export type { Deployment, Repository, SampleData, SampleIntegration } from './sampleData';

export interface StandInOptions {
  /** Default 0 = random free port. */
  port?: number;
  /** The loopback address to listen on; default 127.0.0.1 (127.0.0.2 is not bypassed by VS Code's own proxy resolver). */
  host?: string;
  /** Serve HTTPS with this server certificate and key (PEM) instead of plain HTTP. */
  tls?: { key: string; cert: string };
  /** Default 'dev-key'; null = no auth check. */
  apiKey?: string | null;
  /** Default 'x-api-key' (case-insensitive). */
  apiKeyHeader?: string;
  /** If set, requests whose tenant header differs get 403. */
  requireTenant?: string;
  /** Default 'x-tenant-id' (case-insensitive). */
  tenantHeader?: string;
  /** Dotted paths that POST /v2/deployments bodies must contain. */
  requiredCreateFields?: string[];
  /** Default 1. */
  seed?: number;
  /** Default 1200. */
  deploymentCount?: number;
  /** Delay before every API answer, errors included (not admin routes); kept across reset(). */
  latencyMs?: number;
  /** One line per answered request (method, path, status, time); never headers. */
  log?: (line: string) => void;
  /** How created deployments progress; default DEFAULT_PROGRESS. Settable later with setProgress() or POST /__admin/progress. */
  progress?: ProgressPlan;
  /** Adds LARGE_INTEGRATION (`large-github`) with this many repositories (see addIntegration); default none. */
  largeIntegration?: number;
  /**
   * Answer as the real service does where the contract is silent (shared DESIGN.md, fourth round), instead of
   * with the contract's shapes alone (the default). Off: a contract-only server.
   */
  realShapes?: boolean;
  /**
   * Serve the API only under this path prefix (e.g. `/api-host`), and a web app's HTML page (200, text/html) at
   * every other path, as a self-hosted control plane does. Default none: the API at the root.
   */
  apiPrefix?: string;
}

/**
 * How a created deployment moves on. It is answered `AWAITING_DATABASE` with
 * a fresh `latest_revision_id` and no `active_revision_id`; once it has been
 * listed `awaitingPolls` times and `awaitingMs` have passed (either may be
 * left out; both out = never), it turns `finalStatus`; `activeLagPolls`
 * listings later `active_revision_id` catches up with the latest revision.
 * `activeLagPolls: 'never'` is a rollout that never lands, as the real service
 * leaves a revision that failed to build or deploy: `finalStatus` (READY) with a
 * latest revision that never becomes active and an `updated_at` that stays put.
 */
export interface ProgressPlan {
  awaitingPolls?: number;
  awaitingMs?: number;
  finalStatus?: string;
  activeLagPolls?: number | 'never';
}

export const DEFAULT_PROGRESS: ProgressPlan = { awaitingPolls: 3, finalStatus: 'READY', activeLagPolls: 1 };

interface Progression {
  plan: ProgressPlan;
  createdAt: number;
  /** Listings that returned the record so far. */
  polls: number;
  /** The poll at which the final status was reached. */
  settledAtPoll?: number;
}

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number; body?: string; contentType?: string }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  | { kind: 'nonJson'; status?: number }
  | { kind: 'reset' }
  | { kind: 'stuckOffset' }
  /** No answer until `releaseHung()` (then answered as without the fault) or the client gives up. */
  | { kind: 'hang' };

export interface FaultRule {
  fault: Fault;
  method?: string;
  pathPrefix?: string;
  /** Only deployment listing requests with this offset. */
  whenOffset?: number;
  /** Only requests whose query has this parameter (e.g. `deployment_ids`: the watch requests). */
  whenQuery?: string;
  /** Default Infinity; decremented per hit. */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
  /** When it arrived (ms since the epoch): tests read the spacing of polls from it. */
  at?: number;
}

interface ValidationItem {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_RECORDED = 50_000;
const LISTING_PATH = '/v2/deployments';
const REPOS_PATH = /^\/v1\/integrations\/forge\/codehost\/([^/]+)\/repos$/;
const NAME_PATTERN = '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$';
const NAME_RE = new RegExp(NAME_PATTERN);
const FAULT_KINDS = ['latency', 'status', 'rateLimit', 'nonJson', 'reset', 'stuckOffset', 'hang'];
const JSON_TYPE = 'application/json';

const PROXY_ERROR_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Sign in - Corporate Access</title></head>\n<body><form method="post" action="/login"><h1>Sign in to continue</h1><input name="username"><input type="password" name="password"><button>Sign in</button></form></body></html>\n';

export class StandIn {
  readonly apiKey: string | null;
  readonly integrations: SampleIntegration[];
  /** Listing order (newest first); POST puts new records at the front. */
  readonly deployments: Deployment[];
  readonly requests: RecordedRequest[] = [];

  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly wakers = new Set<() => void>();
  /** The requests held by a 'hang' fault, each resumed by releaseHung(). */
  private readonly hung = new Set<() => void>();
  /** 'done' (RecordedRequest): a recorded request the stand-in is done with (see onDone). */
  private readonly events = new EventEmitter();
  private readonly created = new Set<Deployment>();
  private readonly progressions = new Map<Deployment, Progression>();
  private progressPlan: ProgressPlan;
  private readonly initialProgress: ProgressPlan;
  private rules: Array<{ rule: FaultRule; remaining: number }> = [];
  private readonly apiKeyHeader: string;
  private readonly tenantHeader: string;
  private readonly requireTenant: string | undefined;
  private readonly requiredCreateFields: string[][];
  /** See StandInOptions.realShapes. */
  readonly realShapes: boolean;
  private readonly apiPrefix: string | undefined;
  private readonly latencyMs: number;
  private readonly log: ((line: string) => void) | undefined;
  private boundPort = 0;
  private readonly host: string;
  private readonly scheme: 'http' | 'https';
  private closing: Promise<void> | undefined;

  static async start(options: StandInOptions = {}): Promise<StandIn> {
    const standIn = new StandIn(options);
    await standIn.listen(options.port ?? 0);
    return standIn;
  }

  private constructor(options: StandInOptions) {
    this.apiKey = options.apiKey === undefined ? 'dev-key' : options.apiKey;
    this.apiKeyHeader = (options.apiKeyHeader ?? 'x-api-key').toLowerCase();
    this.tenantHeader = (options.tenantHeader ?? 'x-tenant-id').toLowerCase();
    this.requireTenant = options.requireTenant;
    this.requiredCreateFields = (options.requiredCreateFields ?? []).map((p) => p.split('.').filter(Boolean));
    this.realShapes = options.realShapes ?? false;
    this.apiPrefix = options.apiPrefix?.replace(/\/+$/, '') || undefined;
    this.latencyMs = Math.max(0, options.latencyMs ?? 0);
    this.log = options.log;
    this.initialProgress = normalizeProgress(options.progress ?? DEFAULT_PROGRESS);
    this.progressPlan = this.initialProgress;
    const data = sampleData(options.seed ?? 1, options.deploymentCount ?? 1200, { realShapes: this.realShapes });
    this.integrations = data.integrations;
    this.deployments = data.deployments;
    if (options.largeIntegration) this.addIntegration({ repositoryCount: options.largeIntegration });
    this.host = options.host ?? '127.0.0.1';
    this.scheme = options.tls ? 'https' : 'http';
    const handle = (req: http.IncomingMessage, res: http.ServerResponse) => this.handle(req, res);
    this.server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.on('clientError', (_err, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `${this.scheme}://${this.host}:${this.boundPort}`;
  }

  addFault(rule: FaultRule): void {
    const normalized = normalizeFaultRule(rule);
    this.rules.push({ rule: normalized, remaining: normalized.times ?? Infinity });
  }

  /**
   * Adds an integration whose listing has `repositoryCount` repositories of one owner, more than a
   * view shows at once: sorted, the one at index k is `service-<k>` (see manyRepositories); by
   * default LARGE_INTEGRATION. Replaces an integration with the same ID. Answers it, to remove with
   * removeIntegration.
   */
  addIntegration(options: { repositoryCount: number; id?: string; label?: string; host?: string; owner?: string }): SampleIntegration {
    const { id = LARGE_INTEGRATION.id, label = LARGE_INTEGRATION.label, host = LARGE_INTEGRATION.host } = options;
    this.removeIntegration(id);
    const integration: SampleIntegration = { id, label, host, repositories: manyRepositories(id, host, options.repositoryCount, options.owner) };
    this.integrations.push(integration);
    return integration;
  }

  /** Takes an integration away (its listing answers 404 again); false when there is none with that ID. */
  removeIntegration(id: string): boolean {
    const index = this.integrations.findIndex((integration) => integration.id.toLowerCase() === id.toLowerCase());
    if (index < 0) return false;
    this.integrations.splice(index, 1);
    return true;
  }

  clearFaults(): void {
    this.rules = [];
  }

  /**
   * Lets the requests a 'hang' fault holds go on, answered as they would have been without it (a client that gave up
   * meanwhile gets nothing). Answers how many were released. Tests use it to end a hang when they choose, instead of
   * racing a latency against their own steps.
   */
  releaseHung(): number {
    const released = [...this.hung];
    this.hung.clear();
    for (const release of released) release();
    return released.length;
  }

  /**
   * Calls `listener` with each recorded request (see `requests`) once the stand-in is done with it: answered, reset,
   * or its client gone. Answers the unsubscribe function.
   */
  onDone(listener: (request: RecordedRequest) => void): () => void {
    this.events.on('done', listener);
    return () => this.events.off('done', listener);
  }

  /**
   * The next request matching `predicate` that the stand-in is done with (see onDone), from now on: the event a test
   * waits on before checking what the client made of the answer, or that a request did not carry something.
   */
  nextRequest(predicate: (request: RecordedRequest) => boolean = () => true): Promise<RecordedRequest> {
    return new Promise((resolve) => {
      const off = this.onDone((request) => {
        if (!predicate(request)) return;
        off();
        resolve(request);
      });
    });
  }

  /** Active fault rules with their remaining hit counts. */
  get faults(): Array<FaultRule & { remaining: number }> {
    return this.rules.map((r) => ({ ...r.rule, remaining: r.remaining }));
  }

  /** How deployments created from now on progress. */
  setProgress(plan: ProgressPlan): void {
    this.progressPlan = normalizeProgress(plan);
  }

  get progress(): ProgressPlan {
    return { ...this.progressPlan };
  }

  /**
   * Changes fields of a deployment (e.g. its status) as the control plane
   * would; it stops progressing on its own. False when there is no such ID.
   * `updated_at` becomes now unless `fields` set it (a record stuck since long ago).
   */
  updateDeployment(id: string, fields: Record<string, unknown>): boolean {
    const record = this.deployments.find((d) => typeof d.id === 'string' && d.id.toLowerCase() === id.toLowerCase());
    if (!record) return false;
    Object.assign(record, { updated_at: new Date().toISOString() }, fields);
    this.progressions.delete(record);
    return true;
  }

  /** Removes a deployment from the listing (as if deleted elsewhere). */
  removeDeployment(id: string): boolean {
    const index = this.deployments.findIndex((d) => typeof d.id === 'string' && d.id.toLowerCase() === id.toLowerCase());
    if (index < 0) return false;
    const [record] = this.deployments.splice(index, 1);
    this.progressions.delete(record);
    this.created.delete(record);
    return true;
  }

  reset(): void {
    this.clearFaults();
    this.progressions.clear();
    this.progressPlan = this.initialProgress;
    this.requests.length = 0;
    if (this.created.size > 0) {
      const kept = this.deployments.filter((d) => !this.created.has(d));
      this.deployments.splice(0, this.deployments.length, ...kept);
      this.created.clear();
    }
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.closing = new Promise<void>((resolve) => {
        for (const wake of this.wakers) wake();
        this.wakers.clear();
        this.server.close(() => resolve());
        this.server.closeAllConnections();
        for (const socket of this.sockets) socket.destroy();
      });
    }
    return this.closing;
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, this.host, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        this.boundPort = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    let outcome: string | undefined;
    res.once('finish', () => this.log?.(`${method} ${rawUrl} -> ${res.statusCode} (${Date.now() - started} ms)`));
    this.process(req, res, method, rawUrl, (o) => (outcome = o))
      .then(() => {
        if (outcome) this.log?.(`${method} ${rawUrl} -> ${outcome} (${Date.now() - started} ms)`);
      })
      .catch((err: unknown) => {
        this.log?.(`${method} ${rawUrl} -> internal error: ${err instanceof Error ? err.message : String(err)}`);
        if (!res.headersSent && !res.destroyed) sendJson(res, 500, { detail: 'Internal Server Error' });
      });
  }

  private async process(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    rawUrl: string,
    setOutcome: (outcome: string) => void,
  ): Promise<void> {
    if (this.apiPrefix && !rawUrl.startsWith('/__admin/')) {
      if (!rawUrl.startsWith(`${this.apiPrefix}/`)) {
        const path = rawUrl.split('?')[0];
        this.requests.push({ method, path, query: {}, headers: flattenHeaders(req.headers), at: Date.now() });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><head><title>Control Plane</title></head><body><div id="root"></div></body></html>');
        return;
      }
      rawUrl = rawUrl.slice(this.apiPrefix.length);
    }
    // Split by hand: new URL() would read a leading '//' as a host.
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const params = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
    const body = await readBody(req);
    if (this.closing) return;

    if (path.startsWith('/__admin/')) {
      this.handleAdmin(res, method, path, body.text);
      return;
    }

    const query: Record<string, string> = {};
    for (const [k, v] of params) query[k] = v;
    const recorded: RecordedRequest = { method, path, query, headers: flattenHeaders(req.headers), at: Date.now() };
    if (body.text !== undefined && !body.tooLarge) {
      const parsed = tryParseJson(body.text);
      recorded.body = parsed.ok ? parsed.value : body.text;
    }
    this.requests.push(recorded);
    if (this.requests.length > MAX_RECORDED) this.requests.splice(0, this.requests.length - MAX_RECORDED);
    res.once('close', () => this.events.emit('done', recorded));

    if (this.latencyMs > 0) {
      await this.sleep(this.latencyMs);
      if (this.closing || res.destroyed) return;
    }
    if (body.tooLarge) {
      sendJson(res, 413, { detail: 'Request body too large' });
      return;
    }

    const route = this.route(path);
    if (method === 'OPTIONS') {
      if (!route) sendJson(res, 404, { detail: 'Not Found' });
      else send(res, 204, '', undefined, { allow: route.allow.join(', ') });
      return;
    }

    if (this.apiKey !== null) {
      const provided = headerValue(req, this.apiKeyHeader);
      if (!provided) {
        sendJson(res, 401, { detail: 'Missing API key' });
        return;
      }
      if (!constantTimeEqual(provided, this.apiKey)) {
        sendJson(res, 403, { detail: 'Invalid API key' });
        return;
      }
    }
    if (this.requireTenant !== undefined && headerValue(req, this.tenantHeader) !== this.requireTenant) {
      sendJson(res, 403, { detail: 'This API key requires workspace specification (X-Tenant-Id header)' });
      return;
    }

    const isListing = (method === 'GET' || method === 'HEAD') && path === LISTING_PATH;
    const requestOffset = isListing ? Number(params.get('offset') ?? '0') : undefined;
    let delay = 0;
    let stuck = false;
    let terminal: Fault | undefined;
    for (const active of this.rules) {
      const { rule } = active;
      if (active.remaining <= 0) continue;
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.pathPrefix && !path.startsWith(rule.pathPrefix)) continue;
      if (rule.whenOffset !== undefined && (!isListing || requestOffset !== rule.whenOffset)) continue;
      if (rule.whenQuery !== undefined && !params.has(rule.whenQuery)) continue;
      const fault = rule.fault;
      if (fault.kind === 'latency') delay += fault.ms;
      else if (fault.kind === 'stuckOffset') {
        if (!isListing) continue;
        stuck = true;
      } else if (!terminal) terminal = fault;
      else continue;
      active.remaining -= 1;
    }
    this.rules = this.rules.filter((r) => r.remaining > 0);

    if (delay > 0) {
      await this.sleep(delay);
      if (this.closing || res.destroyed) return;
    }

    if (terminal) {
      switch (terminal.kind) {
        case 'status': {
          const text = terminal.body ?? JSON.stringify({ detail: http.STATUS_CODES[terminal.status] ?? 'Error' });
          const type = terminal.contentType ?? (tryParseJson(text).ok ? JSON_TYPE : 'text/plain; charset=utf-8');
          send(res, terminal.status, text, type);
          return;
        }
        case 'rateLimit':
          sendJson(res, 429, { detail: 'Too many requests' }, { 'retry-after': String(terminal.retryAfterSeconds) });
          return;
        case 'nonJson': {
          const status = terminal.status ?? 200;
          send(res, status, status >= 500 ? PROXY_ERROR_PAGE : LOGIN_PAGE, 'text/html; charset=utf-8');
          return;
        }
        case 'reset':
          setOutcome('socket reset');
          req.socket.destroy();
          return;
        case 'hang':
          setOutcome('hung');
          await new Promise<void>((resume) => {
            const release = (): void => {
              this.hung.delete(release);
              this.wakers.delete(release);
              resume();
            };
            this.hung.add(release);
            this.wakers.add(release);
            // A client that gives up is let go too: releaseHung() counts only the requests still waiting.
            res.once('close', release);
          });
          if (this.closing || res.destroyed) return;
          setOutcome('');
          break;
      }
    }

    if (!route) {
      sendJson(res, 404, { detail: 'Not Found' });
      return;
    }
    if (!route.allow.includes(method)) {
      sendJson(res, 405, { detail: 'Method Not Allowed' }, { allow: route.allow.join(', ') });
      return;
    }
    if (route.kind === 'repos') this.listRepositories(res, route.integrationId);
    else if (method === 'POST') this.createDeployment(res, body.text);
    else this.listDeployments(res, params, stuck);
  }

  private route(path: string): { kind: 'repos'; integrationId: string; allow: string[] } | { kind: 'deployments'; allow: string[] } | undefined {
    if (path === LISTING_PATH) return { kind: 'deployments', allow: ['GET', 'HEAD', 'POST', 'OPTIONS'] };
    const m = REPOS_PATH.exec(path);
    if (m) return { kind: 'repos', integrationId: safeDecode(m[1]), allow: ['GET', 'HEAD', 'OPTIONS'] };
    return undefined;
  }

  private listRepositories(res: http.ServerResponse, rawId: string): void {
    const problem = uuidProblem(rawId);
    if (problem) {
      sendValidation(res, [
        { type: 'uuid_parsing', loc: ['path', 'integration_id'], msg: `Input should be a valid UUID, ${problem}`, input: rawId, ctx: { error: problem } },
      ]);
      return;
    }
    const integration = this.findIntegration(rawId);
    if (!integration) {
      sendJson(res, 404, { detail: `Integration ${rawId} not found` });
      return;
    }
    const records: Repository[] = integration.repositories.map((r) => ({
      host_integration_id: r.host_integration_id,
      id: r.id,
      name: r.name,
      owner: r.owner,
      url: r.url,
      default_branch: r.default_branch,
    }));
    sendJson(res, 200, records);
  }

  private listDeployments(res: http.ServerResponse, params: URLSearchParams, stuckOffset: boolean): void {
    const errors: ValidationItem[] = [];
    const limit = intParam(params, 'limit', 20, 1, 100, errors);
    const offset = intParam(params, 'offset', 0, 0, undefined, errors);
    const nameContains = params.get('name_contains');
    const status = params.get('status');
    const imageVersion = params.get('image_version');
    let remoteReconciled: boolean | undefined;
    const rr = params.get('remote_reconciled');
    if (rr !== null) {
      const v = rr.trim().toLowerCase();
      if (v === 'true') remoteReconciled = true;
      else if (v === 'false') remoteReconciled = false;
      else errors.push({ type: 'bool_parsing', loc: ['query', 'remote_reconciled'], msg: 'Input should be a valid boolean, unable to interpret input', input: rr });
    }
    const deploymentType = params.get('deployment_type');
    if (deploymentType !== null && !(DEPLOYMENT_TYPES as readonly string[]).includes(deploymentType)) {
      errors.push({
        type: 'enum',
        loc: ['query', 'deployment_type'],
        msg: "Input should be 'dev_free', 'dev' or 'prod'",
        input: deploymentType,
        ctx: { expected: "'dev_free', 'dev' or 'prod'" },
      });
    }
    if (errors.length > 0) {
      sendValidation(res, errors);
      return;
    }
    const tagIds = listParam(params, 'tag_value_ids');
    const ids = listParam(params, 'deployment_ids');
    const needle = nameContains?.toLowerCase();

    const resources: Deployment[] = [];
    let skipped = 0;
    for (const d of this.deployments) {
      if (resources.length >= limit) break;
      if (needle !== undefined && !(typeof d.name === 'string' && d.name.toLowerCase().includes(needle))) continue;
      if (status !== null && d.status !== status) continue;
      if (imageVersion !== null && d.image_version !== imageVersion) continue;
      if (deploymentType !== null && this.typeOf(d) !== deploymentType) continue;
      if (remoteReconciled !== undefined && d.remote_reconciled !== remoteReconciled) continue;
      if (tagIds && !(Array.isArray(d.tag_value_ids) && d.tag_value_ids.some((t) => tagIds.has(String(t).toLowerCase())))) continue;
      if (ids && !(typeof d.id === 'string' && ids.has(d.id.toLowerCase()))) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      resources.push(d);
    }
    for (const d of resources) this.advance(d);
    sendJson(res, 200, { resources, offset: stuckOffset ? offset : offset + resources.length });
  }

  private createDeployment(res: http.ServerResponse, text: string | undefined): void {
    if (text === undefined || text.trim() === '') {
      sendValidation(res, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
      return;
    }
    const parsed = tryParseJson(text);
    if (!parsed.ok) {
      sendValidation(res, [
        { type: 'json_invalid', loc: ['body', parsed.position], msg: 'JSON decode error', input: {}, ctx: { error: parsed.error } },
      ]);
      return;
    }
    const body = parsed.value;
    if (!isObject(body)) {
      sendValidation(res, [
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body },
      ]);
      return;
    }

    const errors = new Map<string, ValidationItem>();
    const add = (item: ValidationItem): void => {
      const key = JSON.stringify(item.loc);
      if (!errors.has(key)) errors.set(key, item);
    };
    // `input` is left out of "missing" entries: echoing the parent object would echo secrets.
    const missing = (...path: string[]): void => add({ type: 'missing', loc: ['body', ...path], msg: 'Field required' });
    const requireString = (value: unknown, path: string[]): value is string => {
      if (value === undefined) missing(...path);
      else if (typeof value !== 'string') add({ type: 'string_type', loc: ['body', ...path], msg: 'Input should be a valid string', input: value });
      else return true;
      return false;
    };
    const requireObject = (value: unknown, path: string[]): value is Record<string, unknown> => {
      if (value === undefined) missing(...path);
      else if (!isObject(value)) add({ type: 'dict_type', loc: ['body', ...path], msg: 'Input should be a valid dictionary', input: value });
      else return true;
      return false;
    };

    if (requireString(body.name, ['name']) && !NAME_RE.test(body.name)) {
      add({
        type: 'string_pattern_mismatch',
        loc: ['body', 'name'],
        msg: `String should match pattern '${NAME_PATTERN}'`,
        input: body.name,
        ctx: { pattern: NAME_PATTERN },
      });
    }
    const sourceConfig = body.source_config;
    if (requireObject(sourceConfig, ['source_config'])) {
      const integrationId = sourceConfig.integration_id;
      if (requireString(integrationId, ['source_config', 'integration_id'])) {
        const problem = uuidProblem(integrationId);
        if (problem) {
          add({
            type: 'uuid_parsing',
            loc: ['body', 'source_config', 'integration_id'],
            msg: `Input should be a valid UUID, ${problem}`,
            input: integrationId,
            ctx: { error: problem },
          });
        } else if (!this.findIntegration(integrationId)) {
          add({
            type: 'value_error',
            loc: ['body', 'source_config', 'integration_id'],
            msg: `Value error, unknown integration ${integrationId}`,
            input: integrationId,
          });
        }
      }
      requireString(sourceConfig.repo_url, ['source_config', 'repo_url']);
    }
    const revision = body.source_revision_config;
    if (requireObject(revision, ['source_revision_config'])) {
      if (requireString(revision.repo_ref, ['source_revision_config', 'repo_ref']) && revision.repo_ref.trim() === '') {
        add({
          type: 'string_too_short',
          loc: ['body', 'source_revision_config', 'repo_ref'],
          msg: 'String should have at least 1 character',
          input: revision.repo_ref,
          ctx: { min_length: 1 },
        });
      }
    }
    if (this.realShapes) {
      // The real service: the type inside source_config, and `source` and `secrets` required besides the contract's fields.
      const type = isObject(sourceConfig) ? sourceConfig.deployment_type : undefined;
      if (type !== undefined && !(REAL_DEPLOYMENT_TYPES as readonly unknown[]).includes(type)) {
        add({
          type: 'enum',
          loc: ['body', 'source_config', 'deployment_type'],
          msg: `Input should be ${REAL_DEPLOYMENT_TYPES.map((value) => `'${value}'`).join(', ')}`,
          input: type,
        });
      }
      if (body.source === undefined) missing('source');
      if (body.secrets === undefined) missing('secrets');
    } else if (body.deployment_type !== undefined && !(DEPLOYMENT_TYPES as readonly unknown[]).includes(body.deployment_type)) {
      add({
        type: 'enum',
        loc: ['body', 'deployment_type'],
        msg: "Input should be 'dev_free', 'dev' or 'prod'",
        input: body.deployment_type,
        ctx: { expected: "'dev_free', 'dev' or 'prod'" },
      });
    }
    if (body.secrets !== undefined && !Array.isArray(body.secrets)) {
      add({ type: 'list_type', loc: ['body', 'secrets'], msg: 'Input should be a valid list' });
    }
    for (const path of this.requiredCreateFields) {
      if (getPath(body, path) === undefined) missing(...path);
    }
    if (errors.size > 0) {
      sendValidation(res, [...errors.values()]);
      return;
    }

    const name = body.name as string;
    if (this.deployments.some((d) => d.name === name)) {
      sendJson(res, 409, { detail: `A deployment named ${name} already exists` });
      return;
    }
    // The real service: one deployment per repository, ref and type (its "agent environment").
    if (this.realShapes && this.deployments.some((d) => sameEnvironment(d, body))) {
      sendJson(res, 409, { detail: 'A deployment already exists for this agent environment' });
      return;
    }
    const now = new Date().toISOString();
    const record: Deployment = {
      ...(structuredClone(body) as Record<string, unknown>),
      name,
      id: randomUUID(),
      tenant_id: this.requireTenant && !uuidProblem(this.requireTenant) ? canonicalUuid(this.requireTenant) : SAMPLE_TENANT_ID,
      created_at: now,
      updated_at: now,
      status: 'AWAITING_DATABASE',
      latest_revision_id: randomUUID(),
    };
    if (this.realShapes) (record.source_config as Record<string, unknown>).deployment_type ??= 'prod';
    else record.deployment_type ??= 'dev';
    record.remote_reconciled ??= false;
    record.tag_value_ids ??= [];
    record.secret_references ??= [];
    record.image_version ??= SAMPLE_IMAGE_VERSIONS[SAMPLE_IMAGE_VERSIONS.length - 1];
    this.deployments.unshift(record);
    this.created.add(record);
    this.progressions.set(record, { plan: this.progressPlan, createdAt: Date.now(), polls: 0 });
    sendJson(res, 201, record);
  }

  /** Where the list filter reads a record's type: `source_config.deployment_type` with real shapes, else the top level. */
  private typeOf(record: Deployment): unknown {
    return this.realShapes ? record.source_config?.deployment_type : record.deployment_type;
  }

  /** One listing returned `record`: move it on by its plan (before it is sent). */
  private advance(record: Deployment): void {
    const progression = this.progressions.get(record);
    if (!progression) return;
    const { plan } = progression;
    const polls = progression.polls++;
    const now = new Date().toISOString();
    if (progression.settledAtPoll === undefined) {
      if (plan.awaitingPolls === undefined && plan.awaitingMs === undefined) return;
      if (polls < (plan.awaitingPolls ?? 0) || Date.now() - progression.createdAt < (plan.awaitingMs ?? 0)) return;
      record.status = plan.finalStatus ?? 'READY';
      record.updated_at = now;
      progression.settledAtPoll = polls;
    }
    if (plan.activeLagPolls === 'never') {
      this.progressions.delete(record);
      return;
    }
    if (polls - progression.settledAtPoll >= (plan.activeLagPolls ?? 0)) {
      record.active_revision_id = record.latest_revision_id;
      record.updated_at = now;
      this.progressions.delete(record);
    }
  }

  private handleAdmin(res: http.ServerResponse, method: string, path: string, text: string | undefined): void {
    const notAllowed = (): void => sendJson(res, 405, { detail: 'Method Not Allowed' });
    const deploymentRoute = /^\/__admin\/deployments\/([^/]+)$/.exec(path);
    if (deploymentRoute) {
      const id = safeDecode(deploymentRoute[1]);
      if (method === 'DELETE') {
        return this.removeDeployment(id) ? send(res, 204, '') : sendJson(res, 404, { detail: `No deployment ${id}` });
      }
      if (method !== 'PATCH' && method !== 'POST') return notAllowed();
      const parsed = tryParseJson(text ?? '');
      if (!parsed.ok || !isObject(parsed.value)) return sendJson(res, 400, { detail: 'Send a JSON object of the fields to set, e.g. {"status":"READY"}' });
      if (!this.updateDeployment(id, parsed.value)) return sendJson(res, 404, { detail: `No deployment ${id}` });
      return sendJson(res, 200, this.deployments.find((d) => d.id?.toLowerCase() === id.toLowerCase()));
    }
    switch (path) {
      case '/__admin/release':
        if (method !== 'POST') return notAllowed();
        return sendJson(res, 200, { released: this.releaseHung() });
      case '/__admin/progress':
        if (method === 'GET') return sendJson(res, 200, this.progress);
        if (method !== 'POST' && method !== 'PUT') return notAllowed();
        {
          const parsed = tryParseJson(text ?? '');
          if (!parsed.ok || !isObject(parsed.value)) return sendJson(res, 400, { detail: 'Send a JSON object: {awaitingPolls?, awaitingMs?, finalStatus?, activeLagPolls? (a number or "never")}' });
          try {
            this.setProgress(parsed.value as ProgressPlan);
          } catch (err) {
            return sendJson(res, 400, { detail: err instanceof Error ? err.message : String(err) });
          }
          return sendJson(res, 200, this.progress);
        }
      case '/__admin/faults':
        if (method === 'POST') {
          const parsed = tryParseJson(text ?? '');
          if (!parsed.ok) return sendJson(res, 400, { detail: `Invalid JSON: ${parsed.error}` });
          try {
            this.addFault(parsed.value as FaultRule);
          } catch (err) {
            return sendJson(res, 400, { detail: err instanceof Error ? err.message : String(err) });
          }
          return sendJson(res, 201, { faults: this.rules.length });
        }
        if (method === 'DELETE') {
          this.clearFaults();
          return send(res, 204, '');
        }
        if (method === 'GET') return sendJson(res, 200, this.faults.map((f) => ({ ...f, remaining: Number.isFinite(f.remaining) ? f.remaining : null })));
        return notAllowed();
      case '/__admin/requests':
        if (method === 'GET') return sendJson(res, 200, this.requests.map((r) => this.redacted(r)));
        if (method === 'DELETE') {
          this.requests.length = 0;
          return send(res, 204, '');
        }
        return notAllowed();
      case '/__admin/reset':
        if (method !== 'POST') return notAllowed();
        this.reset();
        return send(res, 204, '');
      case '/__admin/state':
        if (method !== 'GET') return notAllowed();
        return sendJson(res, 200, {
          integrations: this.integrations.map((i) => ({ id: i.id, label: i.label, repositoryCount: i.repositories.length })),
          deploymentCount: this.deployments.length,
          orphanIntegrationId: ORPHAN_INTEGRATION_ID,
          faultCount: this.rules.length,
          requestCount: this.requests.length,
        });
      default:
        return sendJson(res, 404, { detail: 'Not Found' });
    }
  }

  /** The admin route must not echo the API key, even a wrong one. */
  private redacted(r: RecordedRequest): RecordedRequest {
    if (!(this.apiKeyHeader in r.headers)) return r;
    return { ...r, headers: { ...r.headers, [this.apiKeyHeader]: '[redacted]' } };
  }

  /** Looked up live so tests may add integrations to `integrations`. */
  private findIntegration(rawId: string): SampleIntegration | undefined {
    const id = canonicalUuid(rawId);
    return this.integrations.find((i) => i.id.toLowerCase() === id);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }
}

function normalizeFaultRule(input: unknown): FaultRule {
  if (!isObject(input) || !isObject(input.fault)) throw new Error('A fault rule needs a "fault" object');
  const fault = input.fault as Record<string, unknown>;
  const kind = fault.kind;
  if (typeof kind !== 'string' || !FAULT_KINDS.includes(kind)) throw new Error(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
  const num = (v: unknown, what: string): number => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${what} must be a non-negative number`);
    return v;
  };
  if (kind === 'latency') num(fault.ms, 'fault.ms');
  if (kind === 'rateLimit') num(fault.retryAfterSeconds, 'fault.retryAfterSeconds');
  if (kind === 'status') {
    const s = num(fault.status, 'fault.status');
    if (!Number.isInteger(s) || s < 100 || s > 599) throw new Error('fault.status must be an HTTP status code');
    if (fault.body !== undefined && typeof fault.body !== 'string') throw new Error('fault.body must be a string');
    if (fault.contentType !== undefined && typeof fault.contentType !== 'string') throw new Error('fault.contentType must be a string');
  }
  if (kind === 'nonJson' && fault.status !== undefined) num(fault.status, 'fault.status');
  const rule: FaultRule = { fault: { ...fault } as Fault };
  if (input.method !== undefined && input.method !== null) {
    if (typeof input.method !== 'string') throw new Error('method must be a string');
    rule.method = input.method.toUpperCase();
  }
  if (input.pathPrefix !== undefined && input.pathPrefix !== null) {
    if (typeof input.pathPrefix !== 'string') throw new Error('pathPrefix must be a string');
    rule.pathPrefix = input.pathPrefix;
  }
  if (input.whenOffset !== undefined && input.whenOffset !== null) rule.whenOffset = num(input.whenOffset, 'whenOffset');
  if (input.whenQuery !== undefined && input.whenQuery !== null) {
    if (typeof input.whenQuery !== 'string') throw new Error('whenQuery must be a string');
    rule.whenQuery = input.whenQuery;
  }
  if (input.times !== undefined && input.times !== null) {
    const times = input.times;
    if (times !== Infinity) num(times, 'times');
    rule.times = times as number;
  }
  return rule;
}

function normalizeProgress(input: unknown): ProgressPlan {
  if (!isObject(input)) throw new Error('A progress plan is an object');
  const plan: ProgressPlan = {};
  for (const key of ['awaitingPolls', 'awaitingMs', 'activeLagPolls'] as const) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (key === 'activeLagPolls' && value === 'never') {
      plan.activeLagPolls = value;
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${key} must be a non-negative number`);
    plan[key] = value;
  }
  if (input.finalStatus !== undefined && input.finalStatus !== null) {
    if (typeof input.finalStatus !== 'string' || !input.finalStatus) throw new Error('finalStatus must be a non-empty string');
    plan.finalStatus = input.finalStatus;
  }
  return plan;
}

function readBody(req: http.IncomingMessage): Promise<{ text: string | undefined; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve({ text: size === 0 ? undefined : tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge });
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining an oversized body so the client can read the 413.
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
  });
}

function send(res: http.ServerResponse, status: number, text: string, contentType?: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const buf = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...(contentType ? { 'content-type': contentType } : {}), 'content-length': String(buf.length), ...headers });
  res.end(buf);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(value), JSON_TYPE, headers);
}

/** Type values of the real service; its default is prod. */
const REAL_DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'] as const;

/** Whether a stored record and a create body name the same repository URL, ref and type (the type where either keeps it; prod by default). */
function sameEnvironment(record: Record<string, unknown>, body: Record<string, unknown>): boolean {
  const part = (value: Record<string, unknown>, object: string, field: string): unknown => (isObject(value[object]) ? value[object][field] : undefined);
  const type = (value: Record<string, unknown>): unknown => part(value, 'source_config', 'deployment_type') ?? value.deployment_type ?? 'prod';
  return (
    part(record, 'source_config', 'repo_url') === part(body, 'source_config', 'repo_url') &&
    part(record, 'source_revision_config', 'repo_ref') === part(body, 'source_revision_config', 'repo_ref') &&
    type(record) === type(body)
  );
}

function sendValidation(res: http.ServerResponse, detail: ValidationItem[]): void {
  sendJson(res, 422, { detail });
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string; position: number } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const m = /position (\d+)/.exec(message);
    return { ok: false, error: message, position: m ? Number(m[1]) : 0 };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function getPath(obj: Record<string, unknown>, path: string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function intParam(params: URLSearchParams, name: string, dflt: number, min: number, max: number | undefined, errors: ValidationItem[]): number {
  const raw = params.get(name);
  if (raw === null) return dflt;
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) {
    errors.push({ type: 'int_parsing', loc: ['query', name], msg: 'Input should be a valid integer, unable to parse string as an integer', input: raw });
    return dflt;
  }
  const value = Number(raw);
  if (value < min) {
    errors.push({ type: 'greater_than_equal', loc: ['query', name], msg: `Input should be greater than or equal to ${min}`, input: raw, ctx: { ge: min } });
  } else if (max !== undefined && value > max) {
    errors.push({ type: 'less_than_equal', loc: ['query', name], msg: `Input should be less than or equal to ${max}`, input: raw, ctx: { le: max } });
  }
  return value;
}

function listParam(params: URLSearchParams, name: string): Set<string> | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  return new Set(
    raw
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Pydantic-like reason a string is not a UUID, or undefined if it is one. */
function uuidProblem(raw: string): string | undefined {
  const v = raw.toLowerCase().startsWith('urn:uuid:') ? raw.slice(9) : raw;
  const bad = /[^0-9a-fA-F-]/.exec(v);
  if (bad) return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${bad[0]}\` at ${bad.index + 1}`;
  if (v.includes('-')) {
    const groups = v.split('-');
    if (groups.length !== 5) return `invalid group count: expected 5, found ${groups.length}`;
    const lengths = [8, 4, 4, 4, 12];
    for (let i = 0; i < 5; i++) {
      if (groups[i].length !== lengths[i]) return `invalid group length in group ${i}: expected ${lengths[i]}, found ${groups[i].length}`;
    }
    return undefined;
  }
  return v.length === 32 ? undefined : `invalid length: expected length 32 for simple format, found ${v.length}`;
}

function canonicalUuid(raw: string): string {
  const hex = (raw.toLowerCase().startsWith('urn:uuid:') ? raw.slice(9) : raw).replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
