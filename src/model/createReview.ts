// The rows of the create flow's review step, from the body about to be sent and the last failed attempt.
import type { ValidationIssue } from '../api';
import { flattenBody, JsonObject } from './createPayload';
import { fieldPathWords } from './fieldNames';
import { maskSecrets } from './deploymentDetails';
import * as l10n from '@vscode/l10n';

/** A create request that did not succeed; the review shows why. */
export interface FailedAttempt {
  message: string;
  issues: readonly ValidationIssue[];
  /** False when no answer came (cancelled, timed out, connection lost): the deployment may exist. */
  answered: boolean;
  /** A success status whose body is no record: the deployment exists, though nothing can show it. */
  accepted?: boolean;
}

/** The flow's steps where a value the review shows is set. */
export type ValueStep = 'name' | 'ref' | 'type';

/** What picking a review row does: send, edit the body, go back, end the flow to look for a deployment that may exist, or go to a value's step. */
export type ReviewAction = 'create' | 'edit' | 'back' | 'check' | { goto: ValueStep };

export type ReviewRow =
  | { kind: 'separator'; label: string }
  | { kind: 'item'; label: string; description?: string; detail?: string; action: ReviewAction };

/**
 * The review: why the last attempt failed (the server's reasons, each leading to where it is fixed, or a
 * warning that an unanswered request may still have created the deployment), the actions, then the body's fields.
 */
export function reviewRows(body: JsonObject, lastError?: FailedAttempt): ReviewRow[] {
  const rows: ReviewRow[] = [];
  if (lastError?.answered) {
    // No labelled separator above: its label would sit on the first reason's row and cut its detail line.
    const issues = lastError.issues.length > 0 ? lastError.issues : [{ loc: '', msg: lastError.message }];
    for (const issue of issues) {
      const action = actionForField(issue.loc);
      const where = issue.loc ? fieldPathWords(issue.loc) : '';
      // The label names the field in words; the reason itself is the detail line, never cut.
      rows.push({
        kind: 'item',
        label: `$(error) ${where || issue.msg.split('\n')[0]}`,
        description: action === 'edit' ? l10n.t('refused by the server: fix it in the payload') : l10n.t('refused by the server: go to the {0} step', action.goto),
        detail: where ? issue.msg : issue.msg.includes('\n') ? issue.msg : undefined,
        action,
      });
    }
    rows.push({ kind: 'separator', label: '' });
  } else if (lastError) {
    rows.push(
      {
        kind: 'item',
        label: `$(warning) ${lastError.message.split('\n')[0]}`,
        description: lastError.accepted
          ? l10n.t('accepted, but its answer could not be read: check the Deployments view before sending again')
          : l10n.t('no answer came: it may still have been created; check the Deployments view before sending again'),
        detail: lastError.message,
        action: 'check',
      },
      { kind: 'separator', label: '' },
    );
  }
  // Secret values (from the defaults setting, say) are sent, never shown.
  const shown = maskSecrets(body);
  rows.push(
    { kind: 'item', label: l10n.t('$(rocket) Create Deployment'), description: l10n.t("POST /v2/deployments · the body's fields are below"), detail: JSON.stringify(shown), action: 'create' },
    { kind: 'item', label: l10n.t('$(json) Edit Payload…'), description: l10n.t('open the body as JSON, change it, send it from the editor title'), action: 'edit' },
    { kind: 'item', label: l10n.t('$(arrow-left) Back'), action: 'back' },
    // An unlabelled line: a separator's label would sit on the first body row.
    { kind: 'separator', label: '' },
    ...flattenBody(shown).map((field): ReviewRow => ({ kind: 'item', label: field.path, description: field.value, action: actionForField(`body.${field.path}`) })),
  );
  return rows;
}

/** Going to the step where the field a 422 reason names (`loc`) is set, or 'edit' for fields only the payload has. */
export function actionForField(loc: string): 'edit' | { goto: ValueStep } {
  if (/^(body\.)?name$/.test(loc)) return { goto: 'name' };
  const field = loc.split('.').pop();
  return field === 'repo_ref' ? { goto: 'ref' } : field === 'deployment_type' ? { goto: 'type' } : 'edit';
}
