import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './eslint/boundaries.js';
import { errorMessages } from './eslint/error-messages.js';
import { fileReads } from './eslint/file-reads.js';
import { lazyEditor } from './eslint/lazy-editor.js';

export default tseslint.config(
  // .lint-probe-*: what test/unit/lint-room-probes.test.ts writes (and lints with ignores off), should a
  // run be killed before it removes them.
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**', '**/.lint-probe-*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Who may import whom: eslint/boundaries.js.
  ...boundaries,
  // No blocking whole-file reads in main: eslint/file-reads.js.
  ...fileReads,
  // Caught values read with messageOf/stackOf: eslint/error-messages.js.
  ...errorMessages,
  // Monaco only in the modules loaded after the first screen: eslint/lazy-editor.js.
  ...lazyEditor,
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
