import { validateRef } from '../../../model/createPayload';
import { FlowStep } from '../../../ui/multiStepInput';
import { afterRepository, StepContext } from './flowState';

/** The branch, tag or ref to deploy; starts at the repository's default branch. */
export function refStep(context: StepContext): FlowStep {
  return afterRepository(context, {
    id: 'ref',
    async run(input, { repository, draft }) {
      draft.ref = (
        await input.showInputBox({
          value: draft.ref,
          prompt: `Branch, tag or ref to deploy (default branch: ${repository.default_branch}), e.g. refs/tags/v1.0.0.`,
          placeholder: repository.default_branch,
          validate: validateRef,
          onDidChangeValue: (value) => (draft.ref = value),
        })
      ).trim();
    },
  });
}
