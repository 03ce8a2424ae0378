// The rows of the create flow's review step, from the body about to be sent and the last failed attempt.
import type { ValidationIssue } from '../api';
import { BodyChanges, flattenBody, JsonObject } from './createPayload';
import { unfilledFields } from './createRefusal';
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
  /** A 409: the server's reason (`detail`), and the deployment of the same repository and ref when one was found. */
  conflict?: { reason: string; existing?: { id: string; name?: string } };
}

/** The flow's steps where a value the review shows is set. */
export type ValueStep = 'name' | 'ref' | 'type';

/**
 * What picking a review row does: send, edit the body, go back, end the flow to look for a deployment that may exist,
 * end it to show the deployment a conflict is about, go to a value's step, or ask for the value of a field the flow added.
 */
export type ReviewAction = 'create' | 'edit' | 'back' | 'check' | 'existing' | { goto: ValueStep } | { fill: string };

export type ReviewRow =
  | { kind: 'separator'; label: string }
  | { kind: 'item'; label: string; description?: string; detail?: string; action: ReviewAction };

/**
 * The review: why the last attempt failed (the server's reasons, each leading to where it is fixed, or a
 * warning that an unanswered request may still have created the deployment), the actions, then the body's fields.
 */
export function reviewRows(body: JsonObject, lastError?: FailedAttempt, changes?: BodyChanges): ReviewRow[] {
  const rows: ReviewRow[] = [];
  const changed = new Set([...Object.keys(changes?.added ?? {}), ...(changes?.removed ?? [])].map((path) => `body.${path}`));
  if (lastError?.conflict) {
    const { reason, existing } = lastError.conflict;
    rows.push({ kind: 'item', label: `$(error) ${reason.split('\n')[0]}`, description: l10n.t('refused by the server (HTTP 409)'), detail: reason, action: 'edit' });
    if (existing) {
      rows.push({
        kind: 'item',
        label: l10n.t('$(eye) Show Existing Deployment'),
        description: l10n.t('“{0}” deploys this repository and ref', existing.name ?? existing.id),
        action: 'existing',
      });
    }
    rows.push({ kind: 'separator', label: '' });
  } else if (lastError?.answered) {
    // No labelled separator above: its label would sit on the first reason's row and cut its detail line.
    const issues = lastError.issues.length > 0 ? lastError.issues : [{ loc: '', msg: lastError.message }];
    // A reason answered by a change below is said there.
    const unanswered = issues.filter((candidate) => !changed.has(candidate.loc));
    for (const issue of unanswered) {
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
    if (unanswered.length > 0) rows.push({ kind: 'separator', label: '' });
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
  if (changes && changed.size > 0) rows.push(...changeRows(body, changes), { kind: 'separator', label: '' });
  // Secret values (from the defaults setting, say) are sent, never shown.
  const shown = maskSecrets(body);
  const unfilled = unfilledFields(changes, body);
  rows.push(
    unfilled.length > 0
      ? {
          kind: 'item',
          label: l10n.t('$(rocket) Create Deployment'),
          description: l10n.t('first give {0} a value', unfilled.join(', ')),
          detail: JSON.stringify(shown),
          action: { fill: unfilled[0] },
        }
      : { kind: 'item', label: l10n.t('$(rocket) Create Deployment'), description: l10n.t("POST /v2/deployments · the body's fields are below"), detail: JSON.stringify(shown), action: 'create' },
    { kind: 'item', label: l10n.t('$(json) Edit Payload…'), description: l10n.t('open the body as JSON, change it, send it from the editor title'), action: 'edit' },
    { kind: 'item', label: l10n.t('$(arrow-left) Back'), action: 'back' },
    // An unlabelled line: a separator's label would sit on the first body row.
    { kind: 'separator', label: '' },
    ...flattenBody(shown).map((field): ReviewRow => ({ kind: 'item', label: field.path, description: field.value, action: actionForField(`body.${field.path}`) })),
  );
  return rows;
}

/** What the flow added or left out after the server's 422, each saying why; an added field without a known value asks for one. */
function changeRows(body: JsonObject, changes: BodyChanges): ReviewRow[] {
  const rows: ReviewRow[] = [];
  for (const [path, field] of Object.entries(changes.added)) {
    const unfilled = unfilledFields(changes, body).includes(path);
    const value = JSON.stringify(maskSecrets({ value: field.value }).value) ?? 'null';
    rows.push({
      kind: 'item',
      label: `${unfilled ? '$(edit)' : '$(add)'} ${path}`,
      description: unfilled
        ? l10n.t('needs a value: the server requires it (pick to enter it)')
        : field.needsValue
          ? l10n.t('{0} · added: the server requires it (pick to change it)', value)
          : l10n.t('{0} · added: the server requires it', value),
      action: field.needsValue ? { fill: path } : 'edit',
    });
  }
  for (const path of changes.removed) {
    rows.push({ kind: 'item', label: `$(remove) ${path}`, description: l10n.t('left out: the server does not permit it'), action: 'edit' });
  }
  return rows;
}

/** Going to the step where the field a 422 reason names (`loc`) is set, or 'edit' for fields only the payload has. */
export function actionForField(loc: string): 'edit' | { goto: ValueStep } {
  if (/^(body\.)?name$/.test(loc)) return { goto: 'name' };
  const field = loc.split('.').pop();
  return field === 'repo_ref' ? { goto: 'ref' } : field === 'deployment_type' ? { goto: 'type' } : 'edit';
}
