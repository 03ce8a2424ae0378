import vscode = require('vscode');
import { DeploymentsFeature, Services, WatchFeature, WorkspaceFeature } from '../../platform/services';
import { SECTION } from '../../platform/settings';
import { CREATE_TOOL, createDeploymentTool } from './createTool';
import { readTools } from './readTools';
import type { ToolName } from './toolInputs';
import { errorText, textResult } from './toolText';

/** What the tools are built from: the views' services and what the other features offer. */
export interface AgentToolDependencies {
  services: Services;
  deployments: DeploymentsFeature;
  watch: WatchFeature;
  workspace: WorkspaceFeature;
}

const ENABLED_SETTING = `${SECTION}.agentTools.enabled`;

/**
 * The language model tools of agent mode (package.json contributes.languageModelTools): they read and create through
 * the views' client, active profile and key. Registering builds nothing and sends nothing.
 */
export function registerAgentTools(deps: AgentToolDependencies): void {
  // A host without the language model API (an older VS Code, another editor) simply has no tools.
  if (typeof vscode.lm?.registerTool !== 'function') return;
  const tools: Record<ToolName, vscode.LanguageModelTool<unknown>> = { ...readTools(deps), [CREATE_TOOL]: createDeploymentTool(deps) };
  for (const [name, tool] of Object.entries(tools)) deps.services.context.subscriptions.push(vscode.lm.registerTool(name, guarded(deps.services, name, tool)));
}

/**
 * Every tool: off while the setting says so; its answer text, never a thrown stack (cancellation aside, which is
 * VS Code's CancellationError); every call in the log.
 */
function guarded(services: Services, name: string, tool: vscode.LanguageModelTool<unknown>): vscode.LanguageModelTool<unknown> {
  const enabled = () => vscode.workspace.getConfiguration().get<boolean>(ENABLED_SETTING, true);
  return {
    prepareInvocation: tool.prepareInvocation && ((options, token) => (enabled() ? tool.prepareInvocation!(options, token) : undefined)),
    invoke: async (options, token) => {
      if (!enabled()) {
        return textResult(vscode.l10n.t('The Deployments Explorer tools are turned off (setting {0}): ask the user to turn them on to use them.', ENABLED_SETTING));
      }
      services.log.info(`Agent tool ${name} invoked`);
      try {
        const result = await tool.invoke(options, token);
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        return result;
      } catch (error) {
        services.log.warn(`Agent tool ${name}: ${error instanceof Error ? error.message : String(error)}`);
        return textResult(errorText(error));
      }
    },
  };
}
