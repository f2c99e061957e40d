// ESLint with typescript-eslint. Two rules matter most here:
// - floating promises are errors (an un-awaited promise loses its failure);
// - workflow code is deterministic: it may import only @temporalio/workflow and other files of
//   workflows/ (plus types from anywhere), never Node built-ins or packages with I/O.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

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
    files: ['workflows/**/*.ts'],
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
              regex: '^\\.\\.?/(\\.\\./)*(src(?!/campaigns/model/)|activities)(/|$)',
              allowTypeImports: true,
              message: 'Workflows may take only types from src/ and activities/ (activities run through proxyActivities), and values from the pure src/campaigns/model/.',
            },
          ],
        },
      ],
    },
  },
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
    files: ['test/**/*.ts', 'bench/**/*.ts', 'fuzz/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', 'no-console': 'off' },
  },
);
