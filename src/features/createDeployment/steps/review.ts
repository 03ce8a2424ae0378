import * as vscode from 'vscode';
import { buildCreateBody } from '../../../model/createPayload';
import { ReviewAction, reviewPlaceholder, reviewRows } from '../../../model/createReview';
import { FlowStep } from '../../../ui/multiStepInput';
import { checkForDeployment } from '../sendDeployment';
import { afterRepository, StepContext } from './flowState';

type ReviewItem = vscode.QuickPickItem & { action?: ReviewAction };

/**
 * The body about to be sent, why the last attempt failed, and the way on:
 * Create (the flow sends), Edit Payload… (the flow opens the body), Back, or a
 * row that leads to the step where a value is set.
 */
export function reviewStep(context: StepContext): FlowStep {
  return afterRepository(context, {
    id: 'review',
    async run(input, state) {
      const { repository, draft } = state;
      const body = buildCreateBody(repository, draft, context.createDefaults());
      const items = reviewRows(body, state.lastError).map(
        (row): ReviewItem =>
          row.kind === 'separator'
            ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
            : { label: row.label, description: row.description, detail: row.detail, action: row.action },
      );
      const picked = await input.showQuickPick<ReviewItem>({
        placeholder: reviewPlaceholder(draft, repository),
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
      if (action === 'back') input.back();
      if (action && typeof action === 'object') return action;
      state.decision = action === 'edit' ? 'edit' : 'create';
      return 'end';
    },
  });
}
