// ESLint with typescript-eslint. The rules that matter most here:
// - floating promises are errors (an un-awaited promise loses its failure);
// - workflow code is deterministic: it may import only @temporalio/workflow and other files of
//   workflows/ (plus types from anywhere), never Node built-ins or packages with I/O;
// - the import graph (import-x): no value import cycles, and src/api (the HTTP layer) is imported
//   only by src/entry and src/runtime, which wire it up, and by the dashboard (src/web) that it serves;
//   activities never import it.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * Workflow code may import only @temporalio/workflow, other files of workflows/, values from the pure
 * src/campaigns/model/, and types from anywhere. `stepsToRoot` is how many `../` lead from the files
 * to the repository root: only a path that goes that far up reaches src/ or activities/, so a
 * workflow's own `./activity-proxies` or `../campaign/contract` is never mistaken for them. The
 * `workflows/**` block counts one step (at least); deeper files get exact blocks after it.
 */
function workflowImportRules(files, stepsToRoot) {
  const up = stepsToRoot === 1 ? '(\\.\\./)+' : `(\\.\\./){${stepsToRoot}}`;
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows are deterministic and sandboxed: no Node built-ins.' })),
          patterns: [
            {
              // Any package but the workflow SDK (relative paths start with a dot and do not match).
              regex: '^(?!@temporalio/workflow$)[^.]',
              message: 'Workflows may import only @temporalio/workflow and pure modules under workflows/.',
            },
            {
              regex: `^(\\./)?${up}(src(?!/campaigns/model/)|activities)(/|$)`,
              allowTypeImports: true,
              message: 'Workflows may take only types from src/ and activities/ (activities run through proxyActivities), and values from the pure src/campaigns/model/.',
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', '.selfcheck/', 'bin/', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Resolves imports as TypeScript does (tsconfig.json: .ts sources, package exports, @types),
      // and reads the imported .ts files with the TypeScript parser (the rules follow their imports).
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: import.meta.dirname })],
      'import-x/extensions': ['.ts', '.js', '.cjs', '.mjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      // Cycles of value imports. import-x never follows type-only imports (`import type`, or every
      // specifier `type`): those cycles are checked by test/unit/lint-rules.test.ts.
      // Packages are not walked: no cycle of ours runs through one.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: ['src/!(api|entry|runtime|web)/**', 'src/*.ts'],
              from: 'src/api',
              message: 'Only src/entry, src/runtime and the dashboard (src/web, served by the API) import the HTTP layer; move what is shared out of src/api.',
            },
            {
              target: 'activities',
              from: 'src/api',
              message: 'Activities do not import the HTTP layer; move what is shared out of src/api.',
            },
          ],
        },
      ],
    },
  },
  // Workflow imports (workflowImportRules above): every file under workflows/, exact to three folders deep.
  workflowImportRules('workflows/**/*.ts', 1),
  ...[1, 2, 3].map((depth) => workflowImportRules(`workflows/${'*/'.repeat(depth)}*.ts`, depth + 1)),
  {
    // The campaign model is shared with the workflow bundle: pure, so it imports nothing but itself.
    files: ['src/campaigns/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'The campaign model is pure: no Node built-ins.' })),
          patterns: [
            { regex: '^[^.]', message: 'The campaign model is pure: no packages.' },
            { regex: '^\\.\\./', message: 'The campaign model imports only its own modules (the workflow bundle imports it).' },
          ],
        },
      ],
    },
  },
  {
    // The dashboard's one script runs in the browser.
    files: ['src/web/static/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'fuzz/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', 'no-console': 'off' },
  },
);
