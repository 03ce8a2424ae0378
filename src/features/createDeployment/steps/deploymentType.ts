import { DEPLOYMENT_TYPES, DeploymentType } from '../../../api';
import { isDeploymentType } from '../../../model/createPayload';
import { readSettings } from '../../../platform/settings';
import { FlowStep } from '../../../ui/multiStepInput';
import { afterRepository, StepContext } from './flowState';

const DESCRIPTIONS: Record<DeploymentType, string> = { dev_free: 'free development tier', dev: 'development', prod: 'production' };

/** The deployment type, or none (the defaults setting or the server decides). */
export function deploymentTypeStep(context: StepContext): FlowStep {
  return afterRepository(context, {
    id: 'type',
    async run(input, { draft }) {
      const fromDefaults = readSettings().createDefaults.deployment_type;
      const unset = {
        label: '$(circle-slash) Don’t set',
        description: isDeploymentType(fromDefaults) ? `keeps ${fromDefaults} from the defaults setting` : 'the server decides',
        type: undefined as DeploymentType | undefined,
      };
      const items = [unset, ...DEPLOYMENT_TYPES.map((type) => ({ label: type, description: DESCRIPTIONS[type], type }))];
      const picked = await input.showQuickPick({
        placeholder: 'Deployment type (optional)',
        items,
        activeItem: (all) => all.find((item) => item.type === draft.deploymentType),
      });
      draft.deploymentType = picked.type;
    },
  });
}
