import { validateDeploymentName } from '../../../model/createPayload';
import { FlowStep } from '../../../ui/multiStepInput';
import { afterRepository, StepContext } from './flowState';

/** The deployment's name, validated while typing; every keystroke is kept. */
export function nameStep(context: StepContext): FlowStep {
  return afterRepository(context, {
    id: 'name',
    async run(input, { repository, draft }) {
      draft.name = await input.showInputBox({
        value: draft.name,
        prompt: `Name of the new deployment of ${repository.owner}/${repository.name}: lowercase letters, digits and “-”.`,
        placeholder: 'my-app',
        validate: validateDeploymentName,
        onDidChangeValue: (value) => (draft.name = value),
      });
    },
  });
}
