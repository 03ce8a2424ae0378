/** Escapes text from the server for a Markdown tooltip: no formatting, links or HTML can be injected. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (char) => `\\${char}`).replace(/\r?\n/g, ' ');
}
