import * as vscode from 'vscode';
import { Services } from '../../platform/services';
import { isCancellation, signalFor } from '../../platform/commandRunner';
import { discoverIntegrationIds, DiscoveryResult } from '../../model/integrationDiscovery';
import { messageOf } from '../../api/errors';
import { Commands } from '../../platform/commandIds';

export interface DiscoverySummary extends DiscoveryResult {
  /** How many were not known before. */
  added: number;
}

/**
 * "Discover Integrations from Deployments": pages through every deployment
 * (progress with a count, cancellable) and adds the integrations they use to
 * the catalog as discovered. It runs only when asked: on its own the view
 * only shows what the Deployments view's loaded pages reveal (no requests).
 * Answers the function that runs it (`quiet`: progress in the view, failures
 * only in the log; for scripts and tests).
 */
export function registerDiscoverIntegrations(services: Services, viewId: string): (quiet: boolean) => Promise<DiscoverySummary | undefined> {
  let running: Promise<DiscoverySummary | undefined> | undefined;

  const discover = async (signal: AbortSignal, report: (message: string) => void): Promise<DiscoverySummary> => {
    const client = await services.connection.getClient();
    const result = await discoverIntegrationIds(client, {
      signal,
      onProgress: ({ deployments, found }) =>
        report(
          found === 1
            ? vscode.l10n.t('{0} deployments read, 1 integration found', deployments)
            : vscode.l10n.t('{0} deployments read, {1} integrations found', deployments, found),
        ),
    });
    const added = services.catalog.addDiscovered(result.integrationIds, result.codeHosts, { scan: !result.truncated });
    services.log.info(
      `Discovery read ${result.deployments} deployments in ${result.pages} pages: ${result.found} integrations, ${added} new` +
        (result.truncated ? ' (stopped early: too many pages)' : ''),
    );
    return { ...result, added };
  };

  const run = (quiet: boolean): Promise<DiscoverySummary | undefined> => {
    if (running) return running;
    const location = quiet ? { viewId } : vscode.ProgressLocation.Notification;
    running = Promise.resolve(
      vscode.window.withProgress(
        { location, title: vscode.l10n.t('Discovering integrations from deployments'), cancellable: !quiet },
        (progress, token) => discover(signalFor(token), (message) => progress.report({ message })),
      ),
    ).finally(() => {
      running = undefined;
    });
    return running;
  };

  services.commands.register(Commands.discoverIntegrations, async (): Promise<DiscoverySummary | undefined> => {
    const summary = await run(false);
    if (summary) {
      const found =
        summary.found === 1
          ? vscode.l10n.t('Found 1 integration in {0} deployments', summary.deployments)
          : vscode.l10n.t('Found {0} integrations in {1} deployments', summary.found, summary.deployments);
      const text =
        summary.found === 0
          ? vscode.l10n.t('No integrations found in {0} deployments.', summary.deployments)
          : summary.added > 0
            ? vscode.l10n.t('{0}; {1} new, shown as discovered.', found, summary.added)
            : vscode.l10n.t('{0}; all were already shown.', found);
      void vscode.window.showInformationMessage(summary.truncated ? vscode.l10n.t('{0} Stopped early: too many deployments.', text) : text);
    }
    return summary;
  });

  return async (quiet: boolean) => {
    if (!quiet) return run(false);
    try {
      return await run(true);
    } catch (error) {
      if (!isCancellation(error)) {
        services.log.warn(`Background discovery of integrations failed: ${messageOf(error)}`);
      }
      return undefined;
    }
  };
}
