import * as vscode from 'vscode';
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
          prompt: vscode.l10n.t('Branch, tag or ref to deploy (default branch: {0}), e.g. refs/tags/v1.0.0.', repository.default_branch),
          placeholder: repository.default_branch,
          validate: validateRef,
          onDidChangeValue: (value) => (draft.ref = value),
        })
      ).trim();
    },
  });
}
