// `npm run lint`: typescript-eslint's recommended rules, unused code, and the direction of
// dependencies between the rooms of src/ (see README, "Layout"):
//   features/* -> ui, platform, model -> api; features never import each other;
//   api/ and model/ never import 'vscode'.
import tseslint from 'typescript-eslint';

const restrict = (...patterns) => ['error', { patterns }];
const noVscode = { group: ['vscode'], message: 'api/ and model/ stay free of vscode (node-testable); put VS Code glue in platform/.' };
const up = (room, why) => ({ regex: `^(\\.\\./)+${room}(/|$)`, message: why });
const noFeatures = up('features', 'Only extension.ts wires features; a room below features/ cannot import one.');
const noPlatform = up('platform', 'platform/ is VS Code glue: api/, model/ and ui/ cannot import it.');
const noUi = up('ui', 'ui/ holds VS Code input helpers: api/ and model/ cannot import it.');
const noModel = up('model', 'api/ is the bottom room: it cannot import model/.');
const noExtension = up('extension', 'Nothing imports the entry point.');
const siblingFeature = (regex) => ({
  regex,
  message: 'Features never import each other: declare what one offers in platform/services.ts and hand it in from extension.ts.',
});

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', '.vscode-test/', 'test-output/', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-unreachable': 'error',
      'no-unused-private-class-members': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // `import vscode = require('vscode')`: esbuild turns it into a bare require, where
      // `import * as vscode` copies the API's ~300 properties into a new object in every importing module.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='vscode']",
          message: "Use `import vscode = require('vscode')`: esbuild turns it into a bare require (see above).",
        },
        {
          selector:
            "CallExpression[callee.property.name='t']:matches([callee.object.name='l10n'], [callee.object.property.name='l10n']) > :first-child:not(Literal, ObjectExpression, TemplateLiteral[expressions.length=0])",
          message: 'A message to translate is a string literal: `npm run l10n` collects the literals into l10n/bundle.l10n.json.',
        },
      ],
    },
  },
  { files: ['src/api/**/*.ts'], rules: { 'no-restricted-imports': restrict(noVscode, noModel, noPlatform, noUi, noFeatures, noExtension) } },
  { files: ['src/model/**/*.ts'], rules: { 'no-restricted-imports': restrict(noVscode, noPlatform, noUi, noFeatures, noExtension) } },
  { files: ['src/ui/**/*.ts', 'src/platform/**/*.ts'], rules: { 'no-restricted-imports': restrict(noFeatures, noExtension) } },
  { files: ['src/ui/**/*.ts'], rules: { 'no-restricted-imports': restrict(noPlatform, noFeatures, noExtension) } },
  // From src/features/<feature>/, '../x' is a sibling feature (the other rooms are two levels up);
  // from src/features/<feature>/<folder>/, '../../x' is.
  { files: ['src/features/*/*.ts'], rules: { 'no-restricted-imports': restrict(noExtension, siblingFeature('^\\.\\./(?!\\.\\./)')) } },
  { files: ['src/features/*/*/*.ts'], rules: { 'no-restricted-imports': restrict(noExtension, siblingFeature('^\\.\\./\\.\\./(?!\\.\\./)')) } },
);
