import vscode = require('vscode');
import { type Deployment } from '../../api';
import { isControlPlaneError, isErrorOf, messageOf } from '../../api/errors';
import { getPath, JsonObject, normaliseDeploymentName } from '../../model/createPayload';
import { conflictingDeployments } from '../../model/createRefusal';
import type { FailedAttempt } from '../../model/createReview';
import { FILTER_NAMES } from '../../model/deploymentFilters';
import type { DeploymentFilters } from '../../api/query';
import { Services } from '../../platform/services';
import { isCancellation } from '../../platform/commandRunner';
import { copyAndSay } from '../../platform/clipboard';
import { Commands } from '../../platform/commandIds';
import type { CreateFlowDependencies } from './createFlow';

export type SendOutcome = { ok: true; deployment: Deployment } | { ok: false; failure: FailedAttempt };

/**
 * One `POST /v2/deployments` with cancellable progress. Never retried: a second attempt could create a second
 * deployment. A failure is shown with the server's reasons and answered to the caller, who keeps the values.
 */
export async function sendCreateRequest(
  deps: CreateFlowDependencies,
  body: JsonObject,
  profileId?: string,
  review?: () => unknown,
): Promise<SendOutcome> {
  const { services } = deps;
  const name = typeof body.name === 'string' ? body.name : vscode.l10n.t('deployment');
  try {
    const switched = profileSwitch(services, profileId);
    if (switched) throw new Error(switched);
    const deployment = await services.commands.withProgress(vscode.l10n.t('Creating deployment “{0}”…', name), async (signal) => {
      const client = await services.connection.getClient();
      return client.createDeployment(body, { signal });
    });
    services.log.info(`Created deployment ${deployment.name ?? name} (${deployment.id ?? 'no id in the answer'})`);
    return { ok: true, deployment };
  } catch (error) {
    // A success status whose body is not a record (a 201 or 202 without one, say): the request took effect.
    const accepted = isControlPlaneError(error) && (error.kind === 'schema' || (error.status !== undefined && error.status >= 200 && error.status < 300));
    const answered = !accepted && isControlPlaneError(error) && error.status !== undefined;
    // Not awaited: the message stays up while the user goes back to the review.
    if (isCancellation(error)) {
      services.log.warn(`Create Deployment “${name}”: cancelled while waiting for the answer; it may still have been created`);
      // Cancelling stops the waiting, not the server: the request may already have been taken.
      const text = vscode.l10n.t('Stopped waiting for the control plane. “{0}” may still be created: check the Deployments view before sending it again.', name);
      void offerCheck(name, text);
    } else if (accepted) {
      services.log.warn(`Create Deployment “${name}”: accepted, but the answer could not be read: ${messageOf(error)}`);
      const text = vscode.l10n.t(
        'The control plane accepted “{0}”, but its answer could not be read: {1} Check the Deployments view before sending it again.',
        name,
        messageOf(error).split('\n').join(' '),
      );
      void offerCheck(name, text);
    } else if (isControlPlaneError(error) && error.status === 409) {
      const reason = (error.kind === 'http' && error.detail) || messageOf(error);
      const existing = await findExisting(services, body);
      services.log.warn(`Create Deployment “${name}”: conflict (HTTP 409): ${reason}${existing ? `; existing deployment ${existing.id}` : ''}`);
      void offerExisting(deps, name, reason, existing, answered ? review : undefined);
      return { ok: false, failure: { message: messageOf(error), issues: [], answered, conflict: { reason, existing } } };
    } else {
      // A refusal is fixed in the review, which keeps every value; an unanswered request is not sent again blindly.
      const again = answered && review ? { label: vscode.l10n.t('Review'), run: review } : undefined;
      void services.commands.showError(error, undefined, 'Create Deployment', again);
    }
    const issues = (isErrorOf(error, 'validation') && error.issues) || [];
    return { ok: false, failure: { message: messageOf(error), issues, answered, accepted } };
  }
}

/** A body prepared for one profile (its integration, its defaults) is never sent to another: why not, when another is active. */
export function profileSwitch(services: Services, profileId: string | undefined): string | undefined {
  const active = services.connection.profile();
  if (profileId === undefined || profileId === active.id) return undefined;
  return vscode.l10n.t('You switched to profile “{0}” while this deployment was being prepared for another: nothing was sent. Start Create Deployment again.', active.name);
}

/**
 * The deployment of the refused body's repository and ref: from the deployment index when it has been built, else
 * from one listing call by the repository's name (deployments are usually named after it). Never throws.
 */
async function findExisting(services: Services, body: JsonObject): Promise<{ id: string; name?: string } | undefined> {
  const url = getPath(body, 'source_config.repo_url');
  if (typeof url !== 'string') return undefined;
  const index = services.deploymentIndex.current();
  if (index.built) return conflictingDeployments(index.ofRemotes([{ name: '', url }]).deployments, body)[0];
  const repositoryName = normaliseDeploymentName(url.replace(/\.git$/, '').split('/').pop() ?? '');
  if (!repositoryName) return undefined;
  try {
    const page = await services.commands.withProgress(vscode.l10n.t('Looking for the existing deployment…'), async (signal) => {
      const client = await services.connection.getClient();
      return client.listDeployments({ nameContains: repositoryName, limit: 100 }, { signal });
    });
    services.deploymentIndex.current().update(page.deployments);
    const candidates = page.deployments.flatMap((deployment) =>
      typeof deployment.id === 'string'
        ? [{ id: deployment.id, name: deployment.name ?? undefined, repoUrl: deployment.source_config?.repo_url ?? undefined, ref: deployment.source_revision_config?.repo_ref ?? undefined }]
        : [],
    );
    return conflictingDeployments(candidates, body)[0];
  } catch (error) {
    services.log.warn(`Create Deployment: could not look for the existing deployment: ${messageOf(error)}`);
    return undefined;
  }
}

/** A 409: the server's reason, the existing deployment when one was found, and the way back to the review (the values are kept). */
async function offerExisting(
  deps: CreateFlowDependencies,
  name: string,
  reason: string,
  existing: { id: string; name?: string } | undefined,
  review: (() => unknown) | undefined,
): Promise<void> {
  const show = vscode.l10n.t('Show Existing Deployment');
  const back = vscode.l10n.t('Review');
  const text = existing
    ? vscode.l10n.t('“{0}” was not created: {1} (HTTP 409). “{2}” deploys the same repository and ref.', name, reason, existing.name ?? existing.id)
    : vscode.l10n.t('“{0}” was not created: {1} (HTTP 409).', name, reason);
  const choice = await vscode.window.showWarningMessage(text, ...(existing ? [show] : []), ...(review ? [back] : []));
  if (choice === show && existing) await showExisting(deps, existing.id);
  else if (choice === back) await review?.();
}

/** The deployment in the Deployments view, or its JSON when the view's filters leave it out. */
export async function showExisting({ deployments }: CreateFlowDependencies, id: string): Promise<void> {
  await vscode.commands.executeCommand('deploymentsExplorer.deployments.focus');
  const revealed = await deployments.reveal(id).catch(() => false);
  if (!revealed) await vscode.commands.executeCommand(Commands.showDeploymentJson, id);
}

/** The request may have taken effect although no record came back: sending again would make a second deployment. */
async function offerCheck(name: string, text: string): Promise<void> {
  if (await vscode.window.showWarningMessage(text, vscode.l10n.t('Check Deployments'))) await checkForDeployment(name);
}

/**
 * Shows the Deployments view filtered to `name` alone, to see whether an unanswered create took effect:
 * the other filters (a status, say) could leave the new deployment out, and the user send it twice.
 */
export async function checkForDeployment(name: string): Promise<void> {
  await vscode.commands.executeCommand('deploymentsExplorer.deployments.focus');
  const nameOnly: Partial<DeploymentFilters> = Object.fromEntries(FILTER_NAMES.map((filter) => [filter, undefined]));
  await vscode.commands.executeCommand(Commands.filterDeployments, { ...nameOnly, nameContains: name });
}

/** Watches the new record until it settles, refreshes the Deployments view, reveals it and offers its ID and JSON. */
export async function announceCreated({ services, deployments, watch }: CreateFlowDependencies, deployment: Deployment): Promise<void> {
  const id = deployment.id ?? undefined;
  services.deploymentIndex.current().update([deployment]);
  watch?.watchCreated(deployment);
  // Reveal first: it moves focus to the view, which would close a palette opened after the message.
  try {
    await deployments.refresh();
    if (id) await deployments.reveal(id);
  } catch (error) {
    services.log.warn(`The Deployments view could not show the new deployment: ${messageOf(error)}`);
  }
  const copyId = vscode.l10n.t('Copy ID');
  const show = vscode.l10n.t('Show');
  void vscode.window
    .showInformationMessage(vscode.l10n.t('Deployment “{0}” created.', deployment.name ?? id ?? vscode.l10n.t('new deployment')), ...(id ? [copyId, show] : []))
    .then(async (choice) => {
      if (!id) return;
      if (choice === copyId) {
        await copyAndSay(id, vscode.l10n.t('deployment ID {0}', id));
      } else if (choice === show) {
        // The view's row when it has it (reveal loads it if needed), else the record as created (filtered out).
        const revealed = await deployments.reveal(id).catch(() => false);
        await vscode.commands.executeCommand(Commands.showDeploymentJson, revealed ? id : deployment);
      }
    });
}
