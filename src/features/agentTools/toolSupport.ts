import vscode = require('vscode');
import type { ZodMiniType } from 'zod/mini';
import { Services } from '../../platform/services';
import type { ToolName } from './toolInputs';
import { commandName, ToolRefusal } from './toolText';

/** The tool's input as its schema reads it; a refusal naming each problem otherwise (VS Code does not check `inputSchema`). */
export function readInput<T>(name: ToolName, input: unknown): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const inputs: typeof import('./toolInputs') = require('./toolInputs');
  const parsed = inputs.parseInput(inputs.TOOL_INPUTS[name] as unknown as ZodMiniType<T>, input);
  if (parsed.ok) return parsed.value;
  throw new ToolRefusal(vscode.l10n.t('Invalid input, nothing was sent: {0}. Fix these fields and call the tool again.', parsed.problems.join('; ')));
}

/** An AbortSignal that follows the tool call's cancellation token. */
export function signalOf(token: vscode.CancellationToken): AbortSignal {
  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  token.onCancellationRequested(() => abort.abort());
  return abort.signal;
}

/** Where the tools' requests go: the active profile's control plane, as the views reach it. */
export interface Target {
  profileId: string;
  profile: string;
  baseUrl: string;
  tenantId?: string;
  /** Base URL and tenant: the control plane (see ConnectionManager.controlPlane). */
  plane: string;
}

/**
 * The active profile's control plane when the views could load from it (a base URL, and a key that may go there);
 * otherwise a refusal that says which command the user runs. Nothing is sent.
 */
export async function readyTarget(services: Services): Promise<Target> {
  const { profile, effective, origin, key } = await services.connection.resolve();
  if (!origin) {
    throw new ToolRefusal(
      vscode.l10n.t('No base URL is set for profile “{0}”: ask the user to run {1} (the address of the control-plane API).', profile.name, commandName(vscode.l10n.t('Set Base URL…'))),
    );
  }
  if (key === 'none') {
    throw new ToolRefusal(vscode.l10n.t('No API key for profile “{0}”: ask the user to run {1}.', profile.name, commandName(vscode.l10n.t('Set API Key…'))));
  }
  if (key === 'withheld') {
    throw new ToolRefusal(
      vscode.l10n.t(
        'The API key of profile “{0}” was not stored for {1}, so it is not sent there: ask the user to run {2} if they trust that control plane.',
        profile.name,
        origin,
        commandName(vscode.l10n.t('Use API Key There…')),
      ),
    );
  }
  const tenantId = effective.tenantId?.trim() || undefined;
  return { profileId: profile.id, profile: profile.name, baseUrl: effective.baseUrl.trim(), tenantId, plane: services.connection.controlPlane() };
}

/** "profile “Default” at https://…, tenant …": where an answer came from. */
export function targetWords(target: Target): string {
  return target.tenantId
    ? vscode.l10n.t('profile “{0}” at {1}, tenant {2}', target.profile, target.baseUrl, target.tenantId)
    : vscode.l10n.t('profile “{0}” at {1}', target.profile, target.baseUrl);
}

