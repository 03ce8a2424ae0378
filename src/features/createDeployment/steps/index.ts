import { FlowStep } from '../../../ui/multiStepInput';
import { deploymentTypeStep } from './deploymentType';
import { StepContext } from './flowState';
import { nameStep } from './name';
import { pickIntegrationStep } from './pickIntegration';
import { pickRepositoryStep } from './pickRepository';
import { refStep } from './ref';
import { reviewStep } from './review';

export type { FlowState, StepContext } from './flowState';

/** The create flow's steps in order: [integration → repository →] name → ref → type → review. */
export function createSteps(context: StepContext): FlowStep[] {
  return [
    pickIntegrationStep(context),
    pickRepositoryStep(context),
    nameStep(context),
    refStep(context),
    deploymentTypeStep(context),
    reviewStep(context),
  ];
}
