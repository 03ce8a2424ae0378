import vscode = require('vscode');
import { DEPLOYMENT_TYPES, type Deployment, type DeploymentType, type Repository } from '../../api';
import {
  BodyChanges,
  buildCreateBody,
  CreateDraft,
  DraftStore,
  JsonObject,
  nameChangeNote,
  normaliseDeploymentName,
  validateDeploymentName,
  validateRef,
} from '../../model/createPayload';
import { deploymentType } from '../../model/deploymentType';
import { FailedAttempt, ReviewAction, reviewRows } from '../../model/createReview';
import { changedFields, changesForRefusal, hasChanges, rememberedDefaults, unfilledFields } from '../../model/createRefusal';
import { KnownIntegration } from '../../model/repositoryCatalog';
import { DeploymentsFeature, Services, WatchFeature } from '../../platform/services';
import { FlowStep, MultiStepInput } from '../../ui/multiStepInput';
import { CreateDeploymentOptions } from '../../model/createArguments';
import { PayloadDocuments } from './payloadDocuments';
import { announceCreated, checkForDeployment, profileSwitch, sendCreateRequest, showExisting } from './sendDeployment';
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
  | { outcome: 'existing'; deploymentId: string; draft: CreateDraft; lastError?: FailedAttempt }
  | { outcome: 'cancelled'; step: string; draft?: CreateDraft; repository?: Repository; lastError?: FailedAttempt };

/**
 * The create flow: [integration → repository →] name → ref → type → review → send (createSteps below).
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
  let startAt = resume ? 'review' : options?.confirm || options?.openPayload ? undefined : Object.keys(steps)[0];
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
    const switched = profileSwitch(services, profileId);
    if (switched) return vscode.window.showInformationMessage(switched);
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
      if (typeof state.decision === 'object') {
        // The deployment a 409 is about, instead of a second one; the values stay for the next time.
        await showExisting(deps, state.decision.existing);
        return { outcome: 'existing', deploymentId: state.decision.existing, draft: structuredClone(state.draft), lastError: state.lastError };
      }
      if (state.decision === 'edit') {
        const document = await deps.payloads.open(repository, body, state.draft.name);
        return { outcome: 'editing', document: document.uri.toString(), body };
      }
      // A value the server requires that nobody gave yet: asked for in the review, never sent empty (`confirm` included).
      if (unfilledFields(state.draft.changes, body).length > 0) {
        startAt = 'review';
        continue;
      }
      const sent = await sendCreateRequest(deps, body, profileId, reviewAgain);
      if (sent.ok) {
        created = sent.deployment;
        drafts.forget(repository);
        await announceCreated(deps, sent.deployment);
        if (hasChanges(state.draft.changes)) void offerToRemember(services, profileId, state.draft.changes);
        return { outcome: 'created', deployment: sent.deployment, body };
      }
      state.lastError = sent.failure;
      // Fields a 422 says are missing or not permitted are added or left out; the review shows them, the user sends.
      const changes = sent.failure.answered ? changesForRefusal(sent.failure.issues, body, state.draft.changes) : undefined;
      if (changes) {
        state.draft.changes = changes;
        drafts.keep(repository, state.draft);
      }
      startAt = 'review';
    }
  } finally {
    running = false;
  }
}

/** What the create flow has gathered so far; the steps read and update it. */
interface FlowState {
  integration?: KnownIntegration;
  /** Given by the flow's options, or set by the repository step: the steps after it rely on it. */
  repository?: Repository;
  draft: CreateDraft;
  /** The last search in the repository pick, shown again when coming Back to it. */
  repositoryFilter?: string;
  decision?: 'create' | 'edit' | { existing: string };
  lastError?: FailedAttempt;
}

type ReviewItem = vscode.QuickPickItem & { action?: ReviewAction };

/** From the palette the repository is picked, and first its integration when more than one is known. */
function createSteps(state: FlowState, services: Services, drafts: DraftStore, fromPalette: boolean): Record<string, FlowStep> {
  const { catalog } = services;
  const createDefaults = () => services.connection.profiles.createDefaults();
  const pickIntegration: FlowStep = async (input) => {
    const items = catalog.integrations().map((integration) => {
      const cached = catalog.cached(integration.id);
      return {
        label: `$(plug) ${catalog.label(integration)}`,
        description: integration.id,
        detail: [
          integration.origin === 'added' ? vscode.l10n.t('Added') : vscode.l10n.t('Discovered from deployments'),
          catalog.facts(integration.id).codeHost,
          cached ? (cached.length === 1 ? vscode.l10n.t('1 repository') : vscode.l10n.t('{0} repositories', cached.length)) : undefined,
        ]
          .filter(Boolean)
          .join(' · '),
        integration,
      };
    });
    const picked = await input.showQuickPick({
      placeholder: vscode.l10n.t('Pick the code-host integration of the repository'),
      items,
      matchOnDescription: true,
      activeItem: (all) => all.find((item) => item.integration.id === state.integration?.id),
    });
    if (picked.integration.id !== state.integration?.id) state.repositoryFilter = undefined;
    state.integration = picked.integration;
  };

  // Picking another repository parks the values typed for this one and starts from that one's own (kept or default) values.
  const pickRepository: FlowStep = async (input) => {
    // Set by the integration step, or by the flow when only one integration is known.
    const integration = state.integration!;
    const label = catalog.label(integration);
    const picked = await input.showQuickPick({
      placeholder: vscode.l10n.t('Pick a repository of {0} (type to search by name, owner or URL)', label),
      items: async (signal) => {
        const repositories = await catalog.repositories(integration.id, signal);
        if (repositories.length === 0) {
          void vscode.window.showInformationMessage(vscode.l10n.t('The integration {0} lists no repositories. Go Back to pick another.', label));
        }
        return repositories.map((repository) => ({
          label: `$(repo) ${repository.owner}/${repository.name}`,
          description: repository.default_branch,
          detail: repository.url,
          repository,
        }));
      },
      matchOnDescription: true,
      matchOnDetail: true,
      filter: state.repositoryFilter,
      onDidChangeFilter: (value) => (state.repositoryFilter = value),
      activeItem: (all) => all.find((item) => item.repository.url === state.repository?.url),
    });
    if (picked.repository.url !== state.repository?.url || picked.repository.host_integration_id !== state.repository?.host_integration_id) {
      if (state.repository) drafts.keep(state.repository, state.draft);
      state.repository = picked.repository;
      state.draft = drafts.get(picked.repository);
      state.lastError = undefined;
    }
  };

  // The steps below run once the repository is known (given, or picked above); every keystroke is kept in the draft.
  const askName: FlowStep = async (input) => {
    const repository = state.repository!;
    const { draft } = state;
    // Say what the suggested name changed of the repository's, rather than drop characters silently.
    const note = draft.name === normaliseDeploymentName(repository.name) ? nameChangeNote(repository.name) : undefined;
    const prompt = vscode.l10n.t('Name of the new deployment of {0}: lowercase letters, digits and “-”.', `${repository.owner}/${repository.name}`);
    draft.name = await input.showInputBox({
      value: draft.name,
      prompt: note ? vscode.l10n.t('{0} Suggested from “{1}”: {2}, as names allow only a–z, 0–9 and “-”.', prompt, repository.name, note) : prompt,
      placeholder: 'my-app',
      validate: validateDeploymentName,
      onDidChangeValue: (value) => (draft.name = value),
    });
  };

  const askRef: FlowStep = async (input) => {
    const repository = state.repository!;
    const { draft } = state;
    const ref = await input.showInputBox({
      value: draft.ref,
      prompt: vscode.l10n.t('Branch, tag or ref to deploy (default branch: {0}), e.g. refs/tags/v1.0.0.', repository.default_branch),
      placeholder: repository.default_branch,
      validate: validateRef,
      onDidChangeValue: (value) => (draft.ref = value),
    });
    draft.ref = ref.trim();
  };

  // None: the defaults setting or the server decides.
  const pickType: FlowStep = async (input) => {
    const fromDefaults = deploymentType(createDefaults());
    const unset = {
      label: vscode.l10n.t('$(circle-slash) Don’t set'),
      description: fromDefaults ? vscode.l10n.t('keeps {0} from the defaults setting', fromDefaults) : vscode.l10n.t('the server decides'),
      type: undefined as string | undefined,
    };
    const descriptions: Record<DeploymentType, string> = {
      dev_free: vscode.l10n.t('free development tier'),
      dev: vscode.l10n.t('development'),
      prod: vscode.l10n.t('production'),
    };
    // A type the flow was given that is not one of these (from an edited payload, say) stays pickable.
    const own = state.draft.deploymentType && !(DEPLOYMENT_TYPES as readonly string[]).includes(state.draft.deploymentType) ? [state.draft.deploymentType] : [];
    const picked = await input.showQuickPick({
      placeholder: vscode.l10n.t('Deployment type (optional)'),
      items: [
        unset,
        ...DEPLOYMENT_TYPES.map((type): typeof unset => ({ label: type, description: descriptions[type], type })),
        ...own.map((type): typeof unset => ({ label: type, description: '', type })),
      ],
      activeItem: (all) => all.find((item) => item.type === state.draft.deploymentType),
    });
    state.draft.deploymentType = picked.type;
  };

  // The body about to be sent, why the last attempt failed, and the way on: Create (the flow sends),
  // Edit Payload… (the flow opens the body), Back, or a row that leads to the step where a value is set.
  const review: FlowStep = async (input) => {
    const repository = state.repository!;
    const { draft } = state;
    const body = buildCreateBody(repository, draft, createDefaults());
    const items = reviewRows(body, state.lastError, draft.changes).map(
      (row): ReviewItem =>
        row.kind === 'separator'
          ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
          : { label: row.label, description: row.description, detail: row.detail, action: row.action },
    );
    const picked = await input.showQuickPick<ReviewItem>({
      placeholder: vscode.l10n.t('Review: {0} from {1} at {2}', draft.name, `${repository.owner}/${repository.name}`, draft.ref),
      items,
      matchOnDetail: true,
      activeItem: (all) => all.find((item) => item.action === 'create'),
    });
    const action = picked.action;
    if (action === 'check') {
      // Ends the flow (the draft is kept for the next time) and shows the deployments of that name.
      void checkForDeployment(draft.name);
      return 'end';
    }
    if (action === 'existing' && state.lastError?.conflict?.existing) {
      state.decision = { existing: state.lastError.conflict.existing.id };
      return 'end';
    }
    if (action === 'back') input.back();
    if (action && typeof action === 'object' && 'fill' in action) {
      await fillField(input, draft, action.fill);
      return { goto: 'review' };
    }
    if (action && typeof action === 'object') return action;
    state.decision = action === 'edit' ? 'edit' : 'create';
    return 'end';
  };

  const given = { name: askName, ref: askRef, type: pickType, review };
  if (!fromPalette) return given;
  if (catalog.integrations().length <= 1) return { repository: pickRepository, ...given };
  return { integration: pickIntegration, repository: pickRepository, ...given };
}

/** The value of a field the flow added after a 422 without a value it could know: typed as text. */
async function fillField(input: MultiStepInput, draft: CreateDraft, path: string): Promise<void> {
  const added = draft.changes?.added[path];
  if (!added) return;
  const value = await input.showInputBox({
    value: typeof added.value === 'string' ? added.value : JSON.stringify(added.value),
    prompt: vscode.l10n.t('The server requires {0}: enter its value (text; for a list or an object use Edit Payload…).', path),
    validate: (text) => (text.trim() ? undefined : vscode.l10n.t('Enter a value for {0}.', path)),
    onDidChangeValue: (text) => (added.value = text),
  });
  added.value = value;
}

/**
 * Once the server took a body the flow had to change: offer to keep the change in the profile's create defaults, so the
 * next create sends it at once.
 */
async function offerToRemember(services: Services, profileId: string, changes: BodyChanges): Promise<void> {
  const profile = services.connection.profile();
  if (profile.id !== profileId) return;
  const remember = vscode.l10n.t('Remember for This Profile');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('The server needed these changes to the body: {0}. Keep them in the create defaults of profile “{1}”, so the next create sends them at once?', changedFields(changes), profile.name),
    remember,
  );
  if (choice !== remember) return;
  try {
    await services.connection.profiles.setCreateDefaults(rememberedDefaults(services.connection.profiles.createDefaults(), changes));
    services.log.info(`Create defaults of profile ${profile.name}: remembered ${changedFields(changes)}`);
  } catch (error) {
    void services.commands.showError(error, undefined, 'Create Deployment');
  }
}
