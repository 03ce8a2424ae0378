import { Repository } from '../../../api';
import { CreateDraft } from '../../../model/createPayload';
import { FailedAttempt } from '../../../model/createReview';
import { DraftStore } from '../../../model/draftStore';
import { KnownIntegration, RepositoryCatalog } from '../../../model/repositoryCatalog';
import { FlowStep, MultiStepInput, StepOutcome } from '../../../ui/multiStepInput';

/** What the create flow has gathered so far; the steps read and update it. */
export interface FlowState {
  integration?: KnownIntegration;
  repository?: Repository;
  draft: CreateDraft;
  /** The last search in the repository pick, shown again when coming Back to it. */
  repositoryFilter?: string;
  decision?: 'create' | 'edit';
  lastError?: FailedAttempt;
}

/** The state once an integration is known: picked, or the only one. */
export type IntegrationChosen = FlowState & { integration: KnownIntegration };

/** The state once a repository is chosen: picked, or given by a repository row, a script or Deploy This Workspace. */
export type RepositoryChosen = FlowState & { repository: Repository };

/** What every step is built from. */
export interface StepContext {
  readonly state: FlowState;
  readonly catalog: RepositoryCatalog;
  readonly drafts: DraftStore;
  /** From the palette the integration and repository are picked; otherwise they were given. */
  readonly fromPalette: boolean;
  /** What the active profile merges into the body (its create defaults). */
  readonly createDefaults: () => Record<string, unknown>;
}

interface StepDefinition<S extends FlowState> {
  id: string;
  skip?(): boolean;
  run(input: MultiStepInput, state: S): Promise<StepOutcome>;
}

/** A step that comes after the integration is known: it is handed the state with `integration` set. */
export function afterIntegration(context: StepContext, step: StepDefinition<IntegrationChosen>): FlowStep {
  return guarded(context, step, hasIntegration, 'an integration');
}

/** A step that comes after the repository is chosen: it is handed the state with `repository` set. */
export function afterRepository(context: StepContext, step: StepDefinition<RepositoryChosen>): FlowStep {
  return guarded(context, step, hasRepository, 'a repository');
}

/** `step`, run only on a state `has` accepts: reaching it earlier is a bug in the flow, said as one. */
function guarded<S extends FlowState>(context: StepContext, step: StepDefinition<S>, has: (state: FlowState) => state is S, what: string): FlowStep {
  return {
    id: step.id,
    skip: step.skip,
    run(input) {
      const { state } = context;
      if (!has(state)) throw new Error(`Create Deployment: the ${step.id} step was reached before ${what} was chosen.`);
      return step.run(input, state);
    },
  };
}

function hasIntegration(state: FlowState): state is IntegrationChosen {
  return state.integration !== undefined;
}

function hasRepository(state: FlowState): state is RepositoryChosen {
  return state.repository !== undefined;
}
