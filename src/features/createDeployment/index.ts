import vscode = require('vscode');
import type { Repository } from '../../api';
import { DraftStore } from '../../model/createPayload';
import { deploymentType } from '../../model/deploymentType';
import { isPlainObject } from '../../model/jsonValues';
import { DeploymentsFeature, Services, WatchFeature } from '../../platform/services';
import { readCreateArgument } from '../../model/createArguments';
import { CreateResult, runCreateFlow } from './createFlow';
import { deployThisWorkspace } from './deployWorkspace';
import { parsePayloadText } from '../../model/payloadText';
import { PayloadDocuments } from './payloadDocuments';
import { announceCreated, sendCreateRequest } from './sendDeployment';
import { Commands } from '../../platform/commandIds';

/** "Create Deployment…" (from a repository row or the palette), "Deploy This Workspace…" and the "Create Deployment" action of an edited payload. */
export function registerCreateDeployment(services: Services, deployments: DeploymentsFeature, watch?: WatchFeature): void {
  const drafts = new DraftStore();
  const payloads = new PayloadDocuments();
  services.context.subscriptions.push(payloads, services.connection.onDidChangeProfile(() => payloads.releaseAll()));
  const deps = { services, deployments, drafts, payloads, watch };
  /** Payload documents whose request is on its way, with the name it is shown by. */
  const sending = new Map<string, string>();

  services.commands.register(Commands.createDeployment, (argument?: unknown): Promise<CreateResult> =>
    runCreateFlow(deps, readCreateArgument(argument)),
  );

  services.commands.register(Commands.deployWorkspace, (argument?: unknown) => deployThisWorkspace(deps, argument));

  services.commands.register(Commands.sendPayload, async (resource?: unknown) => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri?.toString());
    if (!document) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open the payload document of “Edit Payload…” to create a deployment from it.'));
      return undefined;
    }
    // The editor title's button stays while the request is on its way: a second click must not create a second deployment.
    const key = document.uri.toString();
    if (sending.has(key)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('“{0}” is being sent already: its answer comes in the progress notification.', sending.get(key)!));
      return { outcome: 'sending' };
    }
    const parsed = parsePayloadText(document.getText());
    if (!parsed.ok) {
      const position = new vscode.Position(parsed.line - 1, parsed.column - 1);
      await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
      void vscode.window.showErrorMessage(parsed.message);
      return { outcome: 'invalid', message: parsed.message, line: parsed.line, column: parsed.column };
    }
    const repository = payloads.repositoryOf(document.uri);
    if (repository) keepEditedValues(drafts, repository, parsed.body);
    sending.set(key, typeof parsed.body.name === 'string' ? parsed.body.name : document.uri.path.split('/').pop()!);
    const sent = await sendCreateRequest(deps, parsed.body).finally(() => sending.delete(key));
    if (!sent.ok) return { outcome: 'failed', message: sent.failure.message, issues: sent.failure.issues };
    payloads.release(document.uri);
    if (repository) drafts.forget(repository);
    await announceCreated(deps, sent.deployment);
    return { outcome: 'created', deployment: sent.deployment, body: parsed.body };
  });
}

/** Values changed in the payload come back into the flow the next time it opens. */
function keepEditedValues(drafts: DraftStore, repository: Repository, body: Record<string, unknown>): void {
  const draft = drafts.get(repository);
  if (typeof body.name === 'string') draft.name = body.name;
  const revision = body.source_revision_config;
  if (isPlainObject(revision) && typeof revision.repo_ref === 'string') draft.ref = revision.repo_ref;
  const type = deploymentType(body);
  if (type) draft.deploymentType = type;
  drafts.keep(repository, draft);
}
