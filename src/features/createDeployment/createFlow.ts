import vscode = require('vscode');
import { type Deployment, type Repository } from '../../api';
import { buildCreateBody, CreateDraft, DraftStore, JsonObject } from '../../model/createPayload';
import type { FailedAttempt } from '../../model/createReview';
import { DeploymentsFeature, Services, WatchFeature } from '../../platform/services';
import { MultiStepInput } from '../../ui/multiStepInput';
import { CreateDeploymentOptions } from '../../model/createArguments';
import { PayloadDocuments } from './payloadDocuments';
import { announceCreated, sendCreateRequest } from './sendDeployment';
import { createSteps, FlowState } from './steps';
import { Commands } from '../../platform/commandIds';

export interface CreateFlowDependencies {
  services: Services;
  deployments: DeploymentsFeature;
  drafts: DraftStore;
  payloads: PayloadDocuments;
  watch?: WatchFeature;
}

/** What the command answers (used by tests and scripts; the UI does not need it). */
export type CreateResult =
  | { outcome: 'created'; deployment: Deployment; body: JsonObject }
  | { outcome: 'editing'; document: string; body: JsonObject }
  | { outcome: 'cancelled'; step: string; draft?: CreateDraft; repository?: Repository; lastError?: FailedAttempt };

/**
 * The create flow: [integration → repository →] name → ref → type → review → send (the steps are in ./steps.ts).
 * A refused or cancelled request comes back to the review with every value kept; the values are also kept per
 * repository for the next time.
 */
export async function runCreateFlow(
  deps: CreateFlowDependencies,
  options: CreateDeploymentOptions | undefined,
  /** Reopen at the review after a refusal (the notification's Review), with the reasons. */
  resume?: { lastError: FailedAttempt },
): Promise<CreateResult> {
  const { services, drafts } = deps;
  const state: FlowState = { draft: { name: '', ref: '' }, lastError: resume?.lastError };
  const profileId = services.connection.profile().id;
  if (options) {
    state.repository = options.repository;
    state.draft = drafts.get(options.repository);
    if (options.name !== undefined) state.draft.name = options.name;
    if (options.ref !== undefined) state.draft.ref = options.ref;
    if (options.deploymentType !== undefined) state.draft.deploymentType = options.deploymentType ?? undefined;
    drafts.keep(options.repository, state.draft);
  } else {
    const integrations = services.catalog.integrations();
    if (integrations.length === 0) {
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('No code-host integrations are known yet. Add one by its ID to pick a repository from it.'),
        vscode.l10n.t('Add Integration…'),
      );
      if (choice) await vscode.commands.executeCommand(Commands.addIntegration);
      return { outcome: 'cancelled', step: 'integration' };
    }
    if (integrations.length === 1) state.integration = integrations[0];
  }

  const steps = createSteps(state, services, drafts, !options);
  // The step the input opens at; none when the options say to send (or open the body) without asking.
  let startAt = resume ? 'review' : options?.confirm || options?.openPayload ? undefined : steps[0].id;
  if (options?.openPayload) state.decision = 'edit';
  // While the flow runs (its input open, or its request on its way) it comes back to the review by itself.
  let running = true;
  let created: Deployment | undefined;
  const reviewAgain = () => {
    if (created) {
      // A refusal's notification outlives the flow: its Review must not lead to sending the same deployment again.
      const name = created.name ?? created.id ?? state.draft.name;
      return vscode.window.showInformationMessage(vscode.l10n.t('“{0}” has been created since this refusal: there is nothing to review.', name));
    }
    if (running || !state.lastError || !state.repository) return;
    const active = services.connection.profile();
    if (active.id !== profileId) {
      // Its body was made for the other profile's control plane (its integration, its defaults).
      const text = vscode.l10n.t(
        'You switched to profile “{0}” while this deployment was being prepared for another: nothing was sent. Start Create Deployment again.',
        active.name,
      );
      return vscode.window.showInformationMessage(text);
    }
    const { name, ref, deploymentType } = state.draft;
    return runCreateFlow(deps, { repository: state.repository, name, ref, deploymentType: deploymentType ?? null }, { lastError: state.lastError });
  };
  try {
    for (;;) {
      if (startAt !== undefined) {
        state.decision = undefined;
        const result = await new MultiStepInput(vscode.l10n.t('Create Deployment')).run(steps, startAt);
        if (state.repository) drafts.keep(state.repository, state.draft);
        if (result.status === 'cancelled' || !state.repository || !state.decision) {
          const step = result.status === 'cancelled' ? result.at : 'review';
          return { outcome: 'cancelled', step, draft: { ...state.draft }, repository: state.repository, lastError: state.lastError };
        }
      }
      // Given by the options, or set by the repository step (the flow ends above without one).
      const repository = state.repository!;
      const body = buildCreateBody(repository, state.draft, services.connection.profiles.createDefaults());
      if (state.decision === 'edit') {
        const document = await deps.payloads.open(repository, body, state.draft.name);
        return { outcome: 'editing', document: document.uri.toString(), body };
      }
      const sent = await sendCreateRequest(services, body, profileId, reviewAgain);
      if (sent.ok) {
        created = sent.deployment;
        drafts.forget(repository);
        await announceCreated(deps, sent.deployment);
        return { outcome: 'created', deployment: sent.deployment, body };
      }
      state.lastError = sent.failure;
      startAt = 'review';
    }
  } finally {
    running = false;
  }
}
