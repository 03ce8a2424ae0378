/**
 * What a person can do about a failure, as data: the notification buttons, the
 * fix rows of both trees and Add Integration's fixes are all built from
 * `fixActionsFor`, so the same failure offers the same fixes everywhere.
 */
import { AuthError, InvalidInputError, isControlPlaneError, NetworkError } from '../api/errors';

export type FixAction =
  | { readonly kind: 'retry' }
  | { readonly kind: 'setApiKey' }
  | { readonly kind: 'setTenant' }
  /** `setting`: the one setting to change (full ID), when a single one is at fault. */
  | { readonly kind: 'openSettings'; readonly setting?: string }
  | { readonly kind: 'showLog' };

export type FixActionKind = FixAction['kind'];

const retry: FixAction = { kind: 'retry' };
const setApiKey: FixAction = { kind: 'setApiKey' };
const setTenant: FixAction = { kind: 'setTenant' };
const showLog: FixAction = { kind: 'showLog' };
const openSettings = (setting?: string): FixAction => (setting ? { kind: 'openSettings', setting } : { kind: 'openSettings' });

/** The connection setting an invalid-input error names, by the parameter the client reports. */
const SETTING_OF_PARAMETER: Record<string, string | undefined> = {
  'base URL': 'deploymentsExplorer.baseUrl',
  'CA file': 'deploymentsExplorer.caFile',
  proxy: 'http.proxy',
};

/** The fixes for `error`, most likely first. */
export function fixActionsFor(error: unknown): FixAction[] {
  if (!isControlPlaneError(error)) return [showLog];
  if (error instanceof AuthError) {
    // Not enabled for the organisation: another key or tenant will not help; the message says whom to ask.
    if (error.notEnabled) return [showLog];
    if (error.needsTenant) return [setTenant, setApiKey];
    // 401: the key itself was not accepted; a tenant cannot fix that.
    return error.status === 401 ? [setApiKey] : [setApiKey, setTenant];
  }
  if (error instanceof InvalidInputError) {
    return error.parameter in SETTING_OF_PARAMETER ? [openSettings(SETTING_OF_PARAMETER[error.parameter])] : [];
  }
  if (isCertificateProblem(error)) return [openSettings('deploymentsExplorer.caFile'), retry, showLog];
  switch (error.kind) {
    case 'network':
      return [retry, openSettings(), showLog];
    case 'timeout':
    case 'server':
    case 'rateLimited':
    case 'invalidResponse':
      return [retry, showLog];
    default:
      return [showLog];
  }
}

/** A TLS certificate the client does not trust: the fix is the CA file (or, last, strict TLS off). */
function isCertificateProblem(error: unknown): boolean {
  return error instanceof NetworkError && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${error.code ?? ''} ${error.message}`);
}

/** Fixes that change the connection (key, tenant, settings): worth offering inside another flow. */
export function isConnectionFix(action: FixAction): boolean {
  return action.kind === 'setApiKey' || action.kind === 'setTenant' || action.kind === 'openSettings';
}

/** A row beside an error row in a tree: one fix that changes one thing (the key, the tenant, a named setting). */
export interface FixRow {
  readonly kind: 'fix';
  readonly id: string;
  readonly action: FixAction;
}

/** The fix rows of a failure, the same in every tree. Retry is the error row's own click, never a row. */
export function fixRows(error: unknown, idPrefix: string): FixRow[] {
  return fixActionsFor(error)
    .filter((action) => action.kind === 'setApiKey' || action.kind === 'setTenant' || (action.kind === 'openSettings' && !!action.setting))
    .map((action) => ({ kind: 'fix', id: `${idPrefix}/fix/${action.kind}`, action }));
}
