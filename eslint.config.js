import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**'] },
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
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The renderer sees main only through the AppApi contract in shared/.
      'no-restricted-imports': ['error', { patterns: ['**/src-main/**', 'electron', 'node:*'] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      // shared/ runs everywhere: no Node or Electron APIs.
      'no-restricted-imports': [
        'error',
        { patterns: ['**/src-main/**', '**/src-renderer/**', 'electron', 'node:*'] },
      ],
    },
  },
  {
    files: [
      'src-main/core/**/*.ts',
      'src-main/bridge/**/*.ts',
      'src-main/loopback/**/*.ts',
      'src-main/headless/**/*.ts',
      'src-main/cli/**/*.ts',
    ],
    rules: {
      // Electron is imported only under src-main/desktop/.
      'no-restricted-imports': ['error', { patterns: ['electron', '**/desktop/**', '**/src-renderer/**'] }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
