/**
 * Monaco is loaded after the page's first screen (src-renderer/review/editor-loader.ts), so the queue,
 * History and Connections never wait for it. One static import of Monaco, or of a view built on it, from
 * any other module would put it back into the first script. The modules the loader loads (through
 * editor-views.ts) are the only ones that may import them; type-only imports are free, since they leave
 * no code. test/unit/lint-lazy-editor.test.ts proves the rule fires.
 */

/** The modules that are loaded lazily, with Monaco. */
export const LAZY_EDITOR_MODULES = [
  'src-renderer/review/editor-views.ts',
  'src-renderer/review/monaco.ts',
  'src-renderer/review/ReadOnlyDiff.tsx',
  'src-renderer/review/DiskDiff.tsx',
  'src-renderer/review/diff-editor/**',
];

const message =
  'Monaco and the views built on it load after the first screen: place them through ' +
  'src-renderer/review/LazyEditorViews.tsx or editor-loader.ts (import type is fine).';

export const lazyEditor = [
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: LAZY_EDITOR_MODULES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'monaco-editor',
                'monaco-editor/*',
                '**/monaco',
                '**/editor-views',
                '**/ReadOnlyDiff',
                '**/DiskDiff',
                '**/diff-editor/*',
              ],
              allowTypeImports: true,
              message,
            },
          ],
        },
      ],
    },
  },
];
