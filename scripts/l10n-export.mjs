#!/usr/bin/env node
// `npm run l10n`: writes l10n/bundle.l10n.json, the English source bundle translators start from, in
// the format `@vscode/l10n-dev export` writes: a JSON object whose keys and values are the messages,
// or, for a message given with a comment, the key `message/comment` and the value
// `{ "message": …, "comment": [ … ] }`.
//
// The messages are the first arguments of every `vscode.l10n.t(…)`, `l10n.t(…)` and `t(…)` call in
// src/**/*.ts, where `t` is the translator hook imported from an `l10n` module (src/api/l10n.ts). A
// first argument that is not a literal (a variable, a template with `${…}`, a concatenation) cannot
// be looked up in a bundle: it is reported as file:line:column and nothing is written.
//
// Usage: node scripts/l10n-export.mjs [--check | --stdout | <source dir>]
//   (nothing)     collect src/ and write l10n/bundle.l10n.json
//   --check       write nothing; exit 1 naming the keys missing from or stale in the committed bundle
//                 (scripts/lint.mjs runs this)
//   --stdout      print the bundle instead of writing it
//   <source dir>  collect that folder instead of src/ and print its bundle (the tests use it)
// Exits 1, writing nothing, when a translation call's message is not a literal.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { ROOT } from './lib/paths.mjs';

const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');

/** Every .ts file under `dir`, sorted, so the bundle's order does not depend on the file system. */
function sourceFiles(dir) {
  const found = [];
  const walk = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

/** The local names the translator hook `t` is imported under (`import { t } from '../api/l10n'`). */
function hookNames(sourceFile) {
  const names = new Set();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!/(^|\/)l10n$/.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if ((element.propertyName ?? element.name).text === 't') names.add(element.name.text);
    }
  }
  return names;
}

/** True for `vscode.l10n.t(…)`, `l10n.t(…)` and the hook's `t(…)`. */
function isTranslationCall(call, hooks) {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return hooks.has(callee.text);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const owner = callee.expression;
  if (ts.isIdentifier(owner)) return owner.text === 'l10n';
  return ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n';
}

const literalText = (node) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined);

/** `{ message: '…', comment: '…' | ['…'] }`, or undefined when any part is not a literal. */
function objectForm(node) {
  let message;
  let comment = [];
  for (const property of node.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const name = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : undefined;
    if (name === 'message') message = literalText(property.initializer);
    else if (name === 'comment') {
      const value = property.initializer;
      if (ts.isArrayLiteralExpression(value)) {
        const parts = value.elements.map(literalText);
        if (parts.some((part) => part === undefined)) return undefined;
        comment = parts;
      } else {
        const text = literalText(value);
        if (text === undefined) return undefined;
        comment = [text];
      }
    }
  }
  return message === undefined ? undefined : { message, comment };
}

/**
 * The messages of every translation call under `srcDir`, in file and source order (first occurrence
 * wins), as the bundle object, and the calls whose first argument is not a literal.
 */
function collectMessages(srcDir = path.join(ROOT, 'src')) {
  const bundle = new Map();
  const errors = [];
  for (const file of sourceFiles(srcDir)) {
    const text = fs.readFileSync(file, 'utf8');
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const hooks = hookNames(sourceFile);
    const visit = (node) => {
      if (ts.isCallExpression(node) && isTranslationCall(node, hooks)) {
        const first = node.arguments[0];
        const plain = literalText(first);
        const object = plain === undefined && first && ts.isObjectLiteralExpression(first) ? objectForm(first) : undefined;
        if (plain !== undefined) {
          if (!bundle.has(plain)) bundle.set(plain, plain);
        } else if (object) {
          const key = object.comment.length ? `${object.message}/${object.comment.join()}` : object.message;
          if (!bundle.has(key)) bundle.set(key, object.comment.length ? object : object.message);
        } else {
          const at = sourceFile.getLineAndCharacterOfPosition((first ?? node).getStart(sourceFile));
          const shown = (first ?? node).getText(sourceFile).replace(/\s+/g, ' ').slice(0, 80);
          errors.push(
            `${shownPath(file)}:${at.line + 1}:${at.character + 1}: the first argument of ${node.expression.getText(sourceFile)}() ` +
              `must be a string literal (or { message, comment } of literals), not ${shown}`,
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return { bundle: Object.fromEntries(bundle), errors };
}

/** A file as an error names it: relative to the repository when it is inside it. */
function shownPath(file) {
  const relative = path.relative(ROOT, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/** The bundle as the file holds it. */
function bundleText(bundle) {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/** What differs between the committed bundle and the messages in the code, as sentences. */
function staleness(expected) {
  let committed;
  try {
    committed = JSON.parse(fs.readFileSync(BUNDLE, 'utf8'));
  } catch (error) {
    return [`${path.relative(ROOT, BUNDLE)} cannot be read (${error.message})`];
  }
  const show = (keys) => keys.map((key) => `  ${JSON.stringify(key)}`).join('\n');
  const missing = Object.keys(expected).filter((key) => !Object.hasOwn(committed, key));
  const stale = Object.keys(committed).filter((key) => !Object.hasOwn(expected, key));
  const changed = Object.keys(expected).filter(
    (key) => Object.hasOwn(committed, key) && JSON.stringify(committed[key]) !== JSON.stringify(expected[key]),
  );
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const problems = [];
  if (missing.length) problems.push(`${count(missing.length, 'message of the code is', 'messages of the code are')} missing from the bundle:\n${show(missing)}`);
  if (stale.length) problems.push(`${count(stale.length, 'key of the bundle is', 'keys of the bundle are')} no longer in the code:\n${show(stale)}`);
  if (changed.length) problems.push(`${count(changed.length, 'entry differs', 'entries differ')} from the code:\n${show(changed)}`);
  if (!problems.length && fs.readFileSync(BUNDLE, 'utf8') !== bundleText(expected)) problems.push('the bundle is not in the order or layout `npm run l10n` writes');
  return problems;
}

function main(argv) {
  const dirArg = argv.find((arg) => !arg.startsWith('--'));
  const check = argv.includes('--check') && !dirArg;
  const stdout = argv.includes('--stdout') || !!dirArg;
  const srcDir = dirArg ? path.resolve(dirArg) : path.join(ROOT, 'src');
  const { bundle, errors } = collectMessages(srcDir);
  if (errors.length) {
    console.error(`l10n: ${errors.length} ${errors.length === 1 ? 'call cannot' : 'calls cannot'} be translated:\n${errors.join('\n')}`);
    return 1;
  }
  const count = Object.keys(bundle).length;
  if (check) {
    const problems = staleness(bundle);
    if (problems.length) {
      console.error(`l10n: ${path.relative(ROOT, BUNDLE)} is not up to date; run \`npm run l10n\` and commit it.\n${problems.join('\n')}`);
      return 1;
    }
    console.log(`l10n: ${path.relative(ROOT, BUNDLE)} is up to date (${count} messages)`);
    return 0;
  }
  if (stdout) {
    process.stdout.write(bundleText(bundle));
    return 0;
  }
  fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
  fs.writeFileSync(BUNDLE, bundleText(bundle));
  console.log(`l10n: wrote ${count} messages to ${path.relative(ROOT, BUNDLE)}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
