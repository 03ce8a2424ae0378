import * as vscode from 'vscode';
import { DEPLOYMENT_TYPES, DeploymentType } from '../../../api';
import { isDeploymentType } from '../../../model/createPayload';
import { FlowStep } from '../../../ui/multiStepInput';
import { afterRepository, StepContext } from './flowState';

/** Read when the step shows, so that the translation is in place. */
const descriptions = (): Record<DeploymentType, string> => ({
  dev_free: vscode.l10n.t('free development tier'),
  dev: vscode.l10n.t('development'),
  prod: vscode.l10n.t('production'),
});

/** The deployment type, or none (the defaults setting or the server decides). */
export function deploymentTypeStep(context: StepContext): FlowStep {
  return afterRepository(context, {
    id: 'type',
    async run(input, { draft }) {
      const fromDefaults = context.createDefaults().deployment_type;
      const unset = {
        label: vscode.l10n.t('$(circle-slash) Don’t set'),
        description: isDeploymentType(fromDefaults) ? vscode.l10n.t('keeps {0} from the defaults setting', fromDefaults) : vscode.l10n.t('the server decides'),
        type: undefined as DeploymentType | undefined,
      };
      const described = descriptions();
      const items = [unset, ...DEPLOYMENT_TYPES.map((type) => ({ label: type, description: described[type], type }))];
      const picked = await input.showQuickPick({
        placeholder: vscode.l10n.t('Deployment type (optional)'),
        items,
        activeItem: (all) => all.find((item) => item.type === draft.deploymentType),
      });
      draft.deploymentType = picked.type;
    },
  });
}
