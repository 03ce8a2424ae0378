/** Checks an integration ID as the user types it. Pure, unit-tested. */
import * as l10n from '@vscode/l10n';

/** Answers the ID in canonical form (trimmed, lower case, dashed) or the problem with it, named. */
export function parseIntegrationId(text: string): { id: string } | { problem: string } {
  const value = text
    .trim()
    .replace(/^urn:uuid:/i, '')
    .replace(/^\{(.*)\}$/, '$1');
  if (!value) return { problem: l10n.t('Enter the integration ID, a UUID such as 3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b.') };
  const bad = /[^0-9a-f-]/i.exec(value)?.[0];
  if (bad !== undefined) {
    const shown = /\s/.test(bad) ? l10n.t('a space') : l10n.t('“{0}”', bad);
    return { problem: l10n.t('An integration ID is a UUID: hexadecimal digits 0-9, a-f and dashes only, but it contains {0}.', shown) };
  }
  const digits = value.replace(/-/g, '').toLowerCase();
  if (digits.length !== 32) {
    return { problem: l10n.t('An integration ID is a UUID of 32 hexadecimal digits (8-4-4-4-12); this has {0}.', digits.length) };
  }
  const groups = value.split('-').map((group) => group.length);
  if (value.includes('-') && groups.join('-') !== '8-4-4-4-12') {
    return { problem: l10n.t('The dashes are misplaced: a UUID is grouped 8-4-4-4-12, this is {0}.', groups.join('-')) };
  }
  return { id: digits.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') };
}

/** For showInputBox.validateInput: the problem, or undefined when the text is a valid ID. */
export function integrationIdProblem(text: string): string | undefined {
  const parsed = parseIntegrationId(text);
  return 'problem' in parsed ? parsed.problem : undefined;
}
