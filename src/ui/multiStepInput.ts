import vscode = require('vscode');

/** Returning goes on to the next step; 'end' ends the flow, `{ goto }` jumps to another step (by its name in the flow). */
export type FlowStep = (input: MultiStepInput) => Promise<void | 'end' | { goto: string }>;

export type FlowResult = { status: 'completed' } | { status: 'cancelled'; at: string };

class BackRequested {}
class FlowCancelled {}

export interface InputBoxStepOptions {
  value: string;
  prompt: string;
  placeholder?: string;
  /** Message shown while the value is unusable; Enter is refused meanwhile. */
  validate?: (value: string) => string | undefined;
  /** Called with every change, so a value typed and left with Back or Escape is kept. */
  onDidChangeValue?: (value: string) => void;
}

export interface PickStepOptions<T extends vscode.QuickPickItem> {
  placeholder: string;
  /** The items, or a loader: the pick shows busy meanwhile and cancels it when hidden. */
  items: readonly T[] | ((signal: AbortSignal) => Promise<readonly T[]>);
  activeItem?: (items: readonly T[]) => T | undefined;
  matchOnDescription?: boolean;
  matchOnDetail?: boolean;
  /** Text shown in the filter box, e.g. the last search. */
  filter?: string;
  onDidChangeFilter?: (value: string) => void;
}

/**
 * A sequence of quick picks and input boxes with a Back button, shown one at a time in the same title. Steps keep
 * their values in the caller's state object: going Back and forth, or reopening the flow, shows what was typed.
 */
export class MultiStepInput {
  private current: vscode.QuickInput | undefined;
  private stepIndex = 0;
  private totalSteps = 1;

  constructor(private readonly title: string) {}

  /** Runs the steps, by name in the order given, from `startAt`. */
  async run(steps: Readonly<Record<string, FlowStep>>, startAt?: string): Promise<FlowResult> {
    const ids = Object.keys(steps);
    let index = startAt ? Math.max(0, ids.indexOf(startAt)) : 0;
    this.totalSteps = ids.length;
    try {
      while (index < ids.length) {
        this.stepIndex = index;
        const outcome = await steps[ids[index]](this).catch((error: unknown) => {
          if (error instanceof BackRequested) return 'back' as const;
          throw error;
        });
        if (outcome === 'end') return { status: 'completed' };
        if (outcome === 'back') index = Math.max(0, index - 1);
        else if (!outcome) index++;
        else {
          index = ids.indexOf(outcome.goto);
          if (index < 0) throw new Error(`No step “${outcome.goto}” in this flow`);
        }
      }
      return { status: 'completed' };
    } catch (error) {
      if (error instanceof FlowCancelled) return { status: 'cancelled', at: ids[index] };
      throw error;
    } finally {
      this.current?.dispose();
      this.current = undefined;
    }
  }

  /** Leaves the current step backwards, as the Back button does (e.g. for a "Back" item in a pick). */
  back(): never {
    throw new BackRequested();
  }

  /** Resolves with the accepted value; Back and Escape leave the step (the flow handles them). */
  showInputBox(options: InputBoxStepOptions): Promise<string> {
    const box = vscode.window.createInputBox();
    box.value = options.value;
    box.prompt = options.prompt;
    box.placeholder = options.placeholder;
    const validate = (value: string): boolean => {
      const message = options.validate?.(value);
      box.validationMessage = message ? { message, severity: vscode.InputBoxValidationSeverity.Error } : undefined;
      return !message;
    };
    validate(box.value);
    return this.present(box, (resolve) => [
      box.onDidChangeValue((value) => {
        options.onDidChangeValue?.(value);
        validate(value);
      }),
      box.onDidAccept(() => {
        if (validate(box.value)) resolve(box.value);
      }),
    ]);
  }

  /** Resolves with the picked item; Back and Escape leave the step. */
  showQuickPick<T extends vscode.QuickPickItem>(options: PickStepOptions<T>): Promise<T> {
    const pick = vscode.window.createQuickPick<T>();
    pick.placeholder = options.placeholder;
    pick.matchOnDescription = options.matchOnDescription ?? false;
    pick.matchOnDetail = options.matchOnDetail ?? false;
    if (options.filter) pick.value = options.filter;
    return this.present(pick, (resolve, reject) => {
      const loading = new AbortController();
      pick.busy = typeof options.items === 'function';
      Promise.resolve(typeof options.items === 'function' ? options.items(loading.signal) : options.items).then(
        (items) => {
          if (loading.signal.aborted) return;
          pick.busy = false;
          pick.items = items;
          const active = options.activeItem?.(items);
          if (active) pick.activeItems = [active];
        },
        (error: unknown) => {
          if (!loading.signal.aborted) reject(error);
        },
      );
      return [
        pick.onDidChangeValue((value) => options.onDidChangeFilter?.(value)),
        pick.onDidAccept(() => {
          const [selected] = pick.selectedItems;
          if (selected && !pick.busy) resolve(selected);
        }),
        // Leaving the step stops the loading.
        { dispose: () => loading.abort() },
      ];
    });
  }

  /** Shows `input` as the current step until `listen`'s listeners answer it, or Back or Escape; then disposes them. */
  private present<T>(
    input: vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem>,
    listen: (resolve: (value: T) => void, reject: (error: unknown) => void) => vscode.Disposable[],
  ): Promise<T> {
    input.title = this.title;
    input.step = this.stepIndex + 1;
    input.totalSteps = this.totalSteps;
    // A click elsewhere (e.g. on a notification) must not throw away the flow.
    input.ignoreFocusOut = true;
    input.buttons = this.stepIndex > 0 ? [vscode.QuickInputButtons.Back] : [];
    const listeners: vscode.Disposable[] = [];
    return new Promise<T>((resolve, reject) => {
      listeners.push(
        ...listen(resolve, reject),
        input.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) reject(new BackRequested());
        }),
        input.onDidHide(() => reject(new FlowCancelled())),
      );
      // Show the new one before disposing the old, so the widget does not flicker closed.
      const previous = this.current;
      this.current = input;
      input.show();
      previous?.dispose();
    }).finally(() => vscode.Disposable.from(...listeners).dispose());
  }
}
