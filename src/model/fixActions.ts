/**
 * What a person can do about a failure, as data: the notification buttons, the
 * fix rows of both trees and Add Integration's fixes are all built from
 * `fixActionsFor`, so the same failure offers the same fixes everywhere.
 */
import { isControlPlaneError } from '../api/errors';

export type FixAction =
  | { readonly kind: 'retry' | 'setApiKey' | 'setTenant' | 'showLog' | 'checkConnection' }
  /** `setting`: the one setting to change (full ID), when a single one is at fault. */
  | { readonly kind: 'openSettings'; readonly setting?: string }
  /** Set Base URL…, its input pre-filled with `suggestion`. */
  | { readonly kind: 'setBaseUrl'; readonly suggestion?: string };

export type FixActionKind = FixAction['kind'];

/** The connection setting an invalid-input error names, by the parameter the client reports. */
const SETTING_OF_PARAMETER = new Map([
  ['base URL', 'deploymentsExplorer.baseUrl'],
  ['CA file', 'deploymentsExplorer.caFile'],
  ['proxy', 'http.proxy'],
  ['API key header', 'deploymentsExplorer.apiKeyHeader'],
  ['tenant header', 'deploymentsExplorer.tenantHeader'],
]);

/** The fixes for `error`, most likely first. */
export function fixActionsFor(error: unknown): FixAction[] {
  if (!isControlPlaneError(error)) return [{ kind: 'showLog' }];
  if (error.kind === 'auth') {
    // Not enabled for the organisation: another key or tenant will not help; the message says whom to ask.
    if (error.notEnabled) return [{ kind: 'showLog' }];
    if (error.needsTenant) return [{ kind: 'setTenant' }, { kind: 'setApiKey' }];
    // 401: the key itself was not accepted; a tenant cannot fix that.
    return error.status === 401 ? [{ kind: 'setApiKey' }] : [{ kind: 'setApiKey' }, { kind: 'setTenant' }];
  }
  if (error.kind === 'invalidInput') {
    if (error.parameter === 'API key') return [{ kind: 'setApiKey' }];
    if (error.parameter === 'tenant ID') return [{ kind: 'setTenant' }];
    const setting = SETTING_OF_PARAMETER.get(error.parameter ?? '');
    return setting ? [{ kind: 'openSettings', setting }] : [];
  }
  // Where the network is at fault, Check Connection says which step fails and why.
  const check: FixAction = { kind: 'checkConnection' };
  // The proxy wants credentials: they go in http.proxy's URL (VS Code's fetch does not send http.proxyAuthorization).
  if (error.kind === 'proxyAuth') return [{ kind: 'openSettings', setting: 'http.proxy' }, check, { kind: 'retry' }, { kind: 'showLog' }];
  // A TLS certificate the client does not trust: the fix is the CA file (or, last, strict TLS off).
  if (error.kind === 'network' && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${error.code ?? ''} ${error.message}`)) {
    return [{ kind: 'openSettings', setting: 'deploymentsExplorer.caFile' }, check, { kind: 'retry' }, { kind: 'showLog' }];
  }
  if (error.kind === 'network') return [{ kind: 'retry' }, check, { kind: 'openSettings' }, { kind: 'showLog' }];
  if (error.kind === 'invalidResponse' && error.webPage) return [{ kind: 'setBaseUrl', suggestion: error.webPage.suggestion }, check, { kind: 'showLog' }];
  if (error.kind === 'timeout' || error.kind === 'invalidResponse') return [{ kind: 'retry' }, check, { kind: 'showLog' }];
  const transient = ['server', 'rateLimited'].includes(error.kind);
  return transient ? [{ kind: 'retry' }, { kind: 'showLog' }] : [{ kind: 'showLog' }];
}

/** Fixes that change the connection (key, tenant, settings): worth offering inside another flow. */
export function isConnectionFix(action: FixAction): boolean {
  return action.kind === 'setApiKey' || action.kind === 'setTenant' || action.kind === 'openSettings' || action.kind === 'setBaseUrl';
}

/** A row beside an error row in a tree: one fix that changes one thing (the key, the tenant, a named setting). */
export interface FixRow {
  readonly kind: 'fix';
  readonly id: string;
  readonly action: FixAction;
}

/**
 * The fix rows of a failure, the same in every tree: the connection fixes of one thing, and Check Connection.
 * Retry is the error row's own click, never a row.
 */
export function fixRows(error: unknown, idPrefix: string): FixRow[] {
  return fixActionsFor(error)
    .filter((action) => action.kind === 'checkConnection' || (isConnectionFix(action) && (action.kind !== 'openSettings' || !!action.setting)))
    .map((action) => ({ kind: 'fix', id: `${idPrefix}/fix/${action.kind}`, action }));
}
