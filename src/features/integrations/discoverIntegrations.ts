import vscode = require('vscode');
import { Services } from '../../platform/services';
import { discoverIntegrations, DiscoveryResult } from '../../model/integrationDiscovery';
import { Commands } from '../../platform/commandIds';

/**
 * "Discover Integrations from Deployments": reads the integrations of every deployment the control plane's
 * deployment index holds, scanning first what the index has not seen (progress with a count, cancellable), and
 * adds them to the catalog as discovered. Answers what it found, and (`added`) how many were not known before.
 */
export function registerDiscoverIntegrations(services: Services): void {
  let running: Promise<DiscoveryResult & { added: number }> | undefined;

  const discover = () =>
    services.commands.withProgress(vscode.l10n.t('Discovering integrations from deployments'), async (signal, progress) => {
      const result = await discoverIntegrations(services.deploymentIndex, {
        signal,
        onProgress: ({ deployments, found }) =>
          progress.report({
            message:
              found === 1
                ? vscode.l10n.t('{0} read, 1 integration found', deploymentCount(deployments))
                : vscode.l10n.t('{0} read, {1} integrations found', deploymentCount(deployments), found),
          }),
      });
      const added = services.catalog.addDiscovered(result.integrationIds, result.codeHosts, { scan: !result.truncated });
      services.log.info(
        `Discovery read ${result.deployments} indexed deployments: ${result.found} integrations, ${added} new` +
          (result.truncated ? ' (stopped early: too many deployments)' : ''),
      );
      return { ...result, added };
    });

  services.commands.register(Commands.discoverIntegrations, async () => {
    // A second run while one is under way waits for that one.
    const summary = await (running ??= discover().finally(() => (running = undefined)));
    const found =
      summary.found === 1
        ? vscode.l10n.t('Found 1 integration in {0}', deploymentCount(summary.deployments))
        : vscode.l10n.t('Found {0} integrations in {1}', summary.found, deploymentCount(summary.deployments));
    const text =
      summary.found === 0
        ? vscode.l10n.t('No integrations found in {0}.', deploymentCount(summary.deployments))
        : summary.added > 0
          ? vscode.l10n.t('{0}; {1} new, shown as discovered.', found, summary.added)
          : vscode.l10n.t('{0}; all were already shown.', found);
    void vscode.window.showInformationMessage(summary.truncated ? vscode.l10n.t('{0} Stopped early: too many deployments.', text) : text);
    return summary;
  });
}

function deploymentCount(count: number): string {
  return count === 1 ? vscode.l10n.t('1 deployment') : vscode.l10n.t('{0} deployments', count);
}
