import * as vscode from 'vscode';
import { DEPLOYMENT_TYPES, Deployment, DeploymentType, Repository, ValidationIssue } from '../../api';
import { readSettings } from '../../platform/settings';
import {
  buildCreateBody,
  CreateDraft,
  flattenBody,
  formatBody,
  isDeploymentType,
  JsonObject,
  validateDeploymentName,
  validateRef,
} from '../../model/createPayload';
import { KnownIntegration } from '../../model/repositoryCatalog';
import { DeploymentsFeature, Services } from '../../platform/services';
import { FlowStep, MultiStepInput } from '../../ui/multiStepInput';
import { integrationLabel } from '../../model/integrationPresentation';
import { CreateDeploymentOptions } from '../../model/createArguments';
import { DraftStore } from '../../model/draftStore';
import { PayloadDocuments } from './payloadDocuments';
import { announceCreated, checkForDeployment, sendCreateRequest } from './sendDeployment';

export interface CreateFlowDependencies {
  services: Services;
  deployments: DeploymentsFeature;
  drafts: DraftStore;
  payloads: PayloadDocuments;
}

export interface FailedAttempt {
  message: string;
  issues: readonly ValidationIssue[];
  /** False when no answer came (cancelled, timed out, connection lost): the deployment may exist. */
  answered: boolean;
}

/** What the command answers (used by tests and scripts; the UI does not need it). */
export type CreateResult =
  | { outcome: 'created'; deployment: Deployment; body: JsonObject }
  | { outcome: 'editing'; document: string; body: JsonObject }
  | { outcome: 'cancelled'; step: string; draft?: CreateDraft; repository?: Repository; lastError?: FailedAttempt };

interface FlowState {
  integration?: KnownIntegration;
  repository?: Repository;
  draft: CreateDraft;
  repositoryFilter?: string;
  decision?: 'create' | 'edit';
  lastError?: FailedAttempt;
}

const TITLE = 'Create Deployment';

/**
 * The create flow: [integration → repository →] name → ref → type → review →
 * send. A refused or cancelled request comes back to the review with every
 * value kept; the values are also kept per repository for the next time.
 */
export async function runCreateFlow(deps: CreateFlowDependencies, options: CreateDeploymentOptions | undefined): Promise<CreateResult> {
  const { services, drafts } = deps;
  const state: FlowState = { draft: { name: '', ref: '' } };
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
        'No code-host integrations are known yet. Add one by its ID to pick a repository from it.',
        'Add Integration…',
      );
      if (choice) await vscode.commands.executeCommand('deploymentsExplorer.addIntegration');
      return { outcome: 'cancelled', step: 'integration' };
    }
    if (integrations.length === 1) state.integration = integrations[0];
  }

  const fromPalette = !options;
  const steps = createSteps(deps, state, fromPalette);
  let startAt: string | undefined = options?.confirm || options?.openPayload ? undefined : steps.find((step) => !step.skip?.())?.id;
  if (options?.openPayload) state.decision = 'edit';
  for (;;) {
    if (startAt !== undefined) {
      const input = new MultiStepInput(TITLE);
      state.decision = undefined;
      const result = await input.run(steps, startAt);
      if (state.repository) drafts.keep(state.repository, state.draft);
      if (result.status === 'cancelled' || !state.repository || !state.decision) {
        return { outcome: 'cancelled', step: result.status === 'cancelled' ? result.at : 'review', draft: { ...state.draft }, repository: state.repository, lastError: state.lastError };
      }
    }
    const repository = state.repository!;
    const body = buildCreateBody(repository, state.draft, readSettings().createDefaults);
    if (state.decision === 'edit') {
      const document = await deps.payloads.open(repository, formatBody(body));
      return { outcome: 'editing', document: document.uri.toString(), body };
    }
    const sent = await sendCreateRequest(services, body, profileId);
    if (sent.ok) {
      drafts.forget(repository);
      await announceCreated(services, deps.deployments, sent.deployment);
      return { outcome: 'created', deployment: sent.deployment, body };
    }
    state.lastError = { message: sent.message, issues: sent.issues, answered: sent.answered };
    startAt = 'review';
  }
}

function createSteps(deps: CreateFlowDependencies, state: FlowState, fromPalette: boolean): FlowStep[] {
  const { services, drafts } = deps;
  const integrationStep: FlowStep = {
    id: 'integration',
    skip: () => !fromPalette || services.catalog.integrations().length <= 1,
    async run(input) {
      const items = services.catalog.integrations().map((integration) => {
        const cached = services.catalog.cached(integration.id);
        return {
          label: `$(plug) ${integrationLabel(integration)}`,
          description: integration.id,
          detail: [
            integration.origin === 'added' ? 'Added' : 'Discovered from deployments',
            services.catalog.codeHost(integration.id),
            cached ? `${cached.length} ${cached.length === 1 ? 'repository' : 'repositories'}` : undefined,
          ]
            .filter(Boolean)
            .join(' · '),
          integration,
        };
      });
      const picked = await input.showQuickPick({
        placeholder: 'Pick the code-host integration of the repository',
        items,
        matchOnDescription: true,
        activeItem: (all) => all.find((item) => item.integration.id === state.integration?.id),
      });
      if (picked.integration.id !== state.integration?.id) state.repositoryFilter = undefined;
      state.integration = picked.integration;
    },
  };

  const repositoryStep: FlowStep = {
    id: 'repository',
    skip: () => !fromPalette,
    async run(input) {
      const integration = state.integration!;
      const label = integrationLabel(integration);
      const picked = await input.showQuickPick({
        placeholder: `Pick a repository of ${label} (type to search by name, owner or URL)`,
        items: async (signal) => {
          const repositories = await services.catalog.repositories(integration.id, signal);
          if (repositories.length === 0) {
            void vscode.window.showInformationMessage(`The integration ${label} lists no repositories. Go Back to pick another.`);
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
    },
  };

  const nameStep: FlowStep = {
    id: 'name',
    async run(input) {
      const repository = state.repository!;
      state.draft.name = await input.showInputBox({
        value: state.draft.name,
        prompt: `Name of the new deployment of ${repository.owner}/${repository.name}: lowercase letters, digits and “-”.`,
        placeholder: 'my-app',
        validate: validateDeploymentName,
        onDidChangeValue: (value) => (state.draft.name = value),
      });
    },
  };

  const refStep: FlowStep = {
    id: 'ref',
    async run(input) {
      const repository = state.repository!;
      state.draft.ref = (
        await input.showInputBox({
          value: state.draft.ref,
          prompt: `Branch, tag or ref to deploy (default branch: ${repository.default_branch}), e.g. refs/tags/v1.0.0.`,
          placeholder: repository.default_branch,
          validate: validateRef,
          onDidChangeValue: (value) => (state.draft.ref = value),
        })
      ).trim();
    },
  };

  const typeStep: FlowStep = {
    id: 'type',
    async run(input) {
      const fromDefaults = readSettings().createDefaults.deployment_type;
      const unset = {
        label: '$(circle-slash) Don’t set',
        description: isDeploymentType(fromDefaults) ? `keeps ${fromDefaults} from the defaults setting` : 'the server decides',
        type: undefined as DeploymentType | undefined,
      };
      const descriptions: Record<DeploymentType, string> = { dev_free: 'free development tier', dev: 'development', prod: 'production' };
      const items = [unset, ...DEPLOYMENT_TYPES.map((type) => ({ label: type, description: descriptions[type], type }))];
      const picked = await input.showQuickPick({
        placeholder: 'Deployment type (optional)',
        items,
        activeItem: (all) => all.find((item) => item.type === state.draft.deploymentType),
      });
      state.draft.deploymentType = picked.type;
    },
  };

  const reviewStep: FlowStep = {
    id: 'review',
    async run(input) {
      const repository = state.repository!;
      const body = buildCreateBody(repository, state.draft, readSettings().createDefaults);
      type ReviewItem = vscode.QuickPickItem & { action?: 'create' | 'edit' | 'back' | 'check' | { goto: string } };
      const items: ReviewItem[] = [];
      if (state.lastError?.answered) {
        items.push({ label: 'The server refused the last attempt', kind: vscode.QuickPickItemKind.Separator });
        const issues = state.lastError.issues.length > 0 ? state.lastError.issues : [{ loc: '', msg: state.lastError.message }];
        for (const issue of issues) {
          const target = stepForIssue(issue);
          items.push({
            label: `$(error) ${issue.loc ? `${issue.loc}: ` : ''}${issue.msg}`,
            description: target === 'edit' ? 'Fix it in the payload' : `Go to the ${target} step`,
            action: target === 'edit' ? 'edit' : { goto: target },
          });
        }
        items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
      } else if (state.lastError) {
        items.push(
          { label: 'The last attempt got no answer', kind: vscode.QuickPickItemKind.Separator },
          {
            label: `$(warning) ${state.lastError.message.split('\n')[0]}`,
            description: 'It may still have been created: check the Deployments view before sending again',
            action: 'check',
          },
          { label: '', kind: vscode.QuickPickItemKind.Separator },
        );
      }
      items.push(
        { label: '$(rocket) Create Deployment', description: `POST /v2/deployments`, detail: JSON.stringify(body), action: 'create' },
        { label: '$(json) Edit Payload…', description: 'open the body as JSON, change it, send it from the editor title', action: 'edit' },
        { label: '$(arrow-left) Back', action: 'back' },
        { label: 'Body', kind: vscode.QuickPickItemKind.Separator },
        ...flattenBody(body).map((field): ReviewItem => {
          const target = stepForIssue({ loc: `body.${field.path}`, msg: '' });
          return { label: field.path, description: field.value, action: target === 'edit' ? 'edit' : { goto: target } };
        }),
      );
      const picked = await input.showQuickPick<ReviewItem>({
        placeholder: `Review: ${state.draft.name} from ${repository.owner}/${repository.name} at ${state.draft.ref}`,
        items,
        matchOnDetail: true,
        activeItem: (all) => all.find((item) => item.action === 'create'),
      });
      const action = picked.action;
      if (action === 'check') {
        // Ends the flow (the draft is kept for the next time) and shows the deployments of that name.
        void checkForDeployment(state.draft.name);
        return 'end';
      }
      if (action === 'back') input.back();
      if (action && typeof action === 'object') return action;
      state.decision = action === 'edit' ? 'edit' : 'create';
      return 'end';
    },
  };

  return [integrationStep, repositoryStep, nameStep, refStep, typeStep, reviewStep];
}

/** The step where the field a 422 reason names is set, or 'edit' for fields only the payload has. */
function stepForIssue(issue: ValidationIssue): string {
  const field = issue.loc.split('.').pop() ?? '';
  if (/^body\.name$|^name$/.test(issue.loc)) return 'name';
  if (field === 'repo_ref') return 'ref';
  if (field === 'deployment_type') return 'type';
  return 'edit';
}
