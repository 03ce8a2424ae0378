// The multi-step input driven through the fake window as a person would:
// typing, Enter, the Back button, Escape.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { FlowStep, MultiStepInput } from '../../src/ui/multiStepInput';

interface Answers {
  name: string;
  colour?: string;
}

/** A two-step flow (a name, then a colour) over `answers`, like the create flow's steps. */
function nameAndColour(answers: Answers): Record<string, FlowStep> {
  return {
    name: async (input) => {
      answers.name = await input.showInputBox({
        value: answers.name,
        prompt: 'Name of the thing',
        placeholder: 'my-thing',
        validate: (value) => (/^[a-z-]+$/.test(value) ? undefined : 'Use lowercase letters and “-”.'),
        onDidChangeValue: (value) => (answers.name = value),
      });
    },
    colour: async (input) => {
      const picked = await input.showQuickPick({
        placeholder: 'Colour',
        items: ['red', 'green', 'blue'].map((label) => ({ label })),
        activeItem: (items) => items.find((item) => item.label === answers.colour),
      });
      answers.colour = picked.label;
    },
  };
}

describe('MultiStepInput', () => {
  beforeEach(() => fake.resetFake());

  it('shows each step with its number, refuses an invalid value and completes with the answers', async () => {
    const answers: Answers = { name: '' };
    const done = new MultiStepInput('New Thing').run(nameAndColour(answers));

    const box = await fake.window.nextInputBox();
    assert.equal(box.titleText, 'New Thing (1/2)');
    assert.equal(box.prompt, 'Name of the thing');
    assert.equal(box.placeholder, 'my-thing');
    assert.equal(box.hasBackButton, false, 'nothing to go back to');
    assert.equal(box.ignoreFocusOut, true, 'a click elsewhere keeps the flow');
    assert.equal(box.validationText, 'Use lowercase letters and “-”.', 'an empty name is refused from the start');

    box.type('Bad Name');
    assert.equal(box.validationText, 'Use lowercase letters and “-”.');
    box.accept();
    assert.equal(box.visible, true, 'Enter is refused while the value is invalid');
    box.type('my-thing');
    assert.equal(box.validationText, undefined);
    box.accept();

    const pick = await fake.window.nextQuickPick();
    assert.equal(box.visible, false);
    assert.equal(pick.titleText, 'New Thing (2/2)');
    assert.equal(pick.hasBackButton, true);
    assert.deepEqual(pick.labels, ['red', 'green', 'blue']);
    pick.pick('blue');

    assert.deepEqual(await done, { status: 'completed' });
    assert.deepEqual(answers, { name: 'my-thing', colour: 'blue' });
    assert.equal(fake.window.current, undefined, 'nothing is left open');
  });

  it('goes Back to the previous step with what was typed and picked, both ways', async () => {
    const answers: Answers = { name: '' };
    const done = new MultiStepInput('New Thing').run(nameAndColour(answers));

    const first = await fake.window.nextInputBox();
    first.type('kept-name');
    first.accept();
    const pick = await fake.window.nextQuickPick();
    pick.pick('green');
    // A third step does not exist: the flow completed. Run it again from the colour to go back from there.
    assert.deepEqual(await done, { status: 'completed' });

    const again = new MultiStepInput('New Thing').run(nameAndColour(answers), 'colour');
    const colour = await fake.window.nextQuickPick();
    assert.equal(colour.activeLabel, 'green', 'the last choice is highlighted');
    colour.pressBack();
    const name = await fake.window.nextInputBox();
    assert.equal(name.value, 'kept-name');
    name.type('changed-name');
    name.accept();
    const colourAgain = await fake.window.nextQuickPick();
    assert.equal(colourAgain.activeLabel, 'green');
    colourAgain.accept();
    assert.deepEqual(await again, { status: 'completed' });
    assert.deepEqual(answers, { name: 'changed-name', colour: 'green' });
  });

  it('keeps a value typed and left with Back, even when it is not valid yet', async () => {
    const answers: Answers = { name: 'start' };
    const steps = nameAndColour(answers);
    const done = new MultiStepInput('New Thing').run(steps, 'colour');
    (await fake.window.nextQuickPick()).pressBack();
    const box = await fake.window.nextInputBox();
    assert.equal(box.value, 'start');
    box.type('Half Typed');
    box.escape();
    assert.deepEqual(await done, { status: 'cancelled', at: 'name' });
    assert.equal(answers.name, 'Half Typed');
  });

  it('ends with “cancelled” at the step where Escape was pressed, and closes the input', async () => {
    const answers: Answers = { name: 'ok' };
    const done = new MultiStepInput('New Thing').run(nameAndColour(answers));
    (await fake.window.nextInputBox()).accept();
    const pick = await fake.window.nextQuickPick();
    pick.escape();
    assert.deepEqual(await done, { status: 'cancelled', at: 'colour' });
    assert.equal(pick.disposed, true);
    assert.equal(answers.colour, undefined);
  });

  it('lets a step jump to another step or end the flow', async () => {
    const visited: string[] = [];
    const steps: Record<string, FlowStep> = {
      one: async () => void visited.push('one'),
      two: async () => void visited.push('two'),
      review: async (input) => {
        visited.push('review');
        const picked = await input.showQuickPick({ placeholder: 'Review', items: [{ label: 'Change two', goto: 'two' }, { label: 'Done' }] });
        return picked.goto ? { goto: picked.goto } : 'end';
      },
      after: async () => void visited.push('after'),
    };
    const done = new MultiStepInput('Jumps').run(steps);
    (await fake.window.nextQuickPick()).pick('Change two');
    (await fake.window.nextQuickPick()).pick('Done');
    assert.deepEqual(await done, { status: 'completed' });
    assert.deepEqual(visited, ['one', 'two', 'review', 'two', 'review']);
  });

  it('goes back when a step calls back(), e.g. for a “Back” row', async () => {
    const answers: Answers = { name: 'ok' };
    const steps: Record<string, FlowStep> = {
      name: nameAndColour(answers).name,
      review: async (input) => {
        const picked = await input.showQuickPick({ placeholder: 'Review', items: [{ label: 'Create' }, { label: 'Back' }] });
        if (picked.label === 'Back') input.back();
        return 'end';
      },
    };
    const done = new MultiStepInput('Back Row').run(steps, 'review');
    (await fake.window.nextQuickPick()).pick('Back');
    const box = await fake.window.nextInputBox();
    assert.equal(box.value, 'ok');
    box.escape();
    assert.deepEqual(await done, { status: 'cancelled', at: 'name' });
  });

  it('shows a loading pick as busy, then its items with the remembered one highlighted and the last filter', async () => {
    let release!: (items: Array<{ label: string }>) => void;
    const filters: string[] = [];
    const done = new MultiStepInput('Load').run({
      pick: async (input) => {
        await input.showQuickPick({
          placeholder: 'Pick one',
          items: () => new Promise<Array<{ label: string }>>((resolve) => (release = resolve)),
          activeItem: (items) => items.find((item) => item.label === 'beta'),
          filter: 'b',
          onDidChangeFilter: (value) => filters.push(value),
        });
      },
    });
    const pick = await fake.window.nextQuickPick();
    assert.equal(pick.busy, true);
    assert.equal(pick.value, 'b', 'the last search is shown again');
    pick.accept();
    assert.equal(pick.visible, true, 'Enter does nothing while loading');
    release([{ label: 'alpha' }, { label: 'beta' }, { label: 'bob' }]);
    await pick.loaded();
    assert.deepEqual(pick.labels, ['beta', 'bob']);
    assert.equal(pick.activeLabel, 'beta');
    pick.type('bo');
    assert.deepEqual(filters, ['bo']);
    pick.accept();
    assert.deepEqual(await done, { status: 'completed' });
  });

  it('stops loading when the pick is closed, and reports a failed load', async () => {
    let signal: AbortSignal | undefined;
    const cancelled = new MultiStepInput('Load').run({
      pick: async (input) => {
        await input.showQuickPick({ placeholder: 'Pick one', items: (s) => ((signal = s), new Promise<Array<{ label: string }>>(() => undefined)) });
      },
    });
    (await fake.window.nextQuickPick()).escape();
    assert.deepEqual(await cancelled, { status: 'cancelled', at: 'pick' });
    assert.equal(signal?.aborted, true);

    const failed = new MultiStepInput('Load').run({
      pick: async (input) => {
        await input.showQuickPick({ placeholder: 'Pick one', items: async (): Promise<Array<{ label: string }>> => Promise.reject(new Error('HTTP 500')) });
      },
    });
    await assert.rejects(failed, /HTTP 500/);
    assert.equal(fake.window.current, undefined, 'the failed pick is closed');
  });
});
