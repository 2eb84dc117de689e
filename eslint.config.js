// Lint: typescript-eslint with type information, plus the layering rules of docs/ARCHITECTURE.md
// (kernel <- lib <- plugins: the kernel imports neither lib/ nor plugins/, lib/ never imports a
// plugin, and no plugin imports another plugin's files).
//
// The no-unsafe-* family (and no-explicit-any) is on where the code is typed end to end: the
// static pipeline and its detectors, which use @solidity-parser/parser's own AST types. Elsewhere
// it stays off until those areas are typed.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import vigil from './scripts/eslint/layers.js';
import { typecheckRule } from './scripts/eslint/typecheck.js';

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'data/**', '.tmp/**', 'coverage/**', '**/assembly/**', 'wasm/**', '**/*.wasm', '.scratch*/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
  {
    files: ['plugins/gateway-ui/public/**/*.js', 'test/ui/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: [
      'lib/analysis/static/**/*.ts',
      'plugins/detector-*/**/*.ts',
      'plugins/tool-specialized/**/*.ts',
      'plugins/tool-signatures/**/*.ts',
      'plugins/static-analyzer/**/*.ts',
      'plugins/remediation/**/*.ts',
    ],
    ignores: ['**/assembly/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  { plugins: { vigil: { rules: { ...vigil.rules, typecheck: typecheckRule } } }, rules: { 'vigil/layers': 'error' } },
  // tsc's errors, from the program the type-aware rules already built (see scripts/eslint/typecheck.js)
  { files: ['**/*.ts'], ignores: ['**/assembly/**'], rules: { 'vigil/typecheck': 'error' } },
);
