import vscode = require('vscode');
import { loadConnectionCheck } from '../../api/lazy';
import { connectionRedactor } from '../../api/proxy';
import { connectionReport, findingOf } from '../../model/connectionReport';
import { Commands } from '../../platform/commandIds';
import { Services } from '../../platform/services';

/**
 * Check Connection: tries the active profile's control plane step by step (api/connectionCheck) and opens the
 * report (model/connectionReport) as an untitled Markdown document a user can paste into a support ticket.
 * Answers whether the control plane answered.
 */
export function registerCheckConnection({ commands, connection, log }: Services): void {
  commands.register(Commands.checkConnection, async () => {
    const { options, ...facts } = await connection.checkTarget();
    const steps = {
      dns: vscode.l10n.t('Looking up the host name…'),
      connect: vscode.l10n.t('Connecting…'),
      tunnel: vscode.l10n.t('Asking the proxy for a tunnel…'),
      tls: vscode.l10n.t('TLS handshake…'),
      listing: vscode.l10n.t('Listing call…'),
    };
    const check = await commands.withProgress(vscode.l10n.t('Checking the connection…'), (signal, progress) =>
      loadConnectionCheck().checkConnection(options, (step) => progress.report({ message: steps[step] }), signal),
    );
    const context = { ...facts, userAgent: options.userAgent ?? '', time: new Date() };
    // The report holds no secret by construction; the redactor is the second net, as for every message.
    const redactor = connectionRedactor(options);
    const finding = findingOf(check, context);
    log.info(`Check Connection: ${redactor.text(finding.ok ? 'the control plane answered' : finding.cause)}`);
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: redactor.text(connectionReport(check, context)) });
    await vscode.window.showTextDocument(document, { preview: false });
    return finding.ok;
  });
}
