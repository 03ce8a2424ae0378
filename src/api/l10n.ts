/**
 * The one translator hook of the code below platform/: the API client (api/) and the model (model/)
 * must not import vscode, so their user-facing texts go through `t('… {0} …', value)`, which formats
 * like `vscode.l10n.t` and, once the extension has installed its translator at activation
 * (`setTranslator(vscode.l10n.t)` in extension.ts), looks the message up in the user's language.
 * Without one (unit tests, the stand-in server, the bench) it is the English text with its
 * placeholders filled in.
 *
 * Every `t(…)` takes a string literal as its first argument, so that `npm run l10n`
 * (scripts/l10n-export.mjs) collects it into l10n/bundle.l10n.json, and lint fails when that file
 * is not up to date. Arguments are values to show, never secrets: a translator is code outside the
 * client's redaction.
 */
export type L10nArg = string | number | boolean;
export type Translator = (message: string, ...args: L10nArg[]) => string;

let translator: Translator | undefined;
/** Bumped by each setTranslator, so that tables built with `translated` are built again. */
let generation = 0;

/** Installs (or, with undefined, removes) the function that translates the client's and the model's messages. */
export function setTranslator(next: Translator | undefined): void {
  translator = next;
  generation++;
}

/**
 * A table of translated words, built on first use and again after the translator changes: a
 * module-level constant would be built at load time, before activation installs the translator.
 */
export function translated<T>(build: () => T): () => T {
  let built: { generation: number; value: T } | undefined;
  return () => {
    if (built?.generation !== generation) built = { generation, value: build() };
    return built.value;
  };
}

/** `message` in the user's language, each `{0}`, `{1}`… replaced by the argument at that index. */
export function t(message: string, ...args: L10nArg[]): string {
  return translator ? translator(message, ...args) : format(message, args);
}

/** vscode.l10n.t's English formatting: a placeholder with no argument stays as it is. */
function format(message: string, args: L10nArg[]): string {
  if (args.length === 0) return message;
  return message.replace(/\{([^}]+)\}/g, (whole, key: string) => {
    const index = /^\d+$/.test(key) ? Number(key) : -1;
    return index >= 0 && index < args.length ? String(args[index]) : whole;
  });
}

/**
 * A message filled in once per row of a long list (100k repositories): translated once, on first
 * use, then filled by joining its pieces instead of a lookup and a regular expression per row.
 * `translate` answers the message with its placeholders unfilled, e.g.
 * `() => vscode.l10n.t('Repository {0}/{1}')`: both translators leave placeholders without an
 * argument as they are.
 */
export function fillable(translate: () => string): (...args: L10nArg[]) => string {
  const pieces = translated(() => translate().split(/\{(\d+)\}/));
  return (...args) => {
    const parts = pieces();
    let text = parts[0];
    for (let i = 1; i < parts.length; i += 2) {
      const index = Number(parts[i]);
      text += (index < args.length ? String(args[index]) : `{${parts[i]}}`) + parts[i + 1];
    }
    return text;
  };
}
