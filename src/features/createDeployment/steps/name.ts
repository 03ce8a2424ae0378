import * as vscode from 'vscode';
import { nameChangeNote, normaliseDeploymentName, validateDeploymentName } from '../../../model/createPayload';
import { FlowStep } from '../../../ui/multiStepInput';
import { afterRepository, StepContext } from './flowState';

/** The deployment's name, validated while typing; every keystroke is kept. */
export function nameStep(context: StepContext): FlowStep {
  return afterRepository(context, {
    id: 'name',
    async run(input, { repository, draft }) {
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
    },
  });
}
