/**
 * The house rules as lint (docs/ARCHITECTURE.md): who may import whom. Each rule is proved to fire by
 * test/unit/lint-boundaries.test.ts.
 */

/** One folder per protocol under src-main/bridge/; none may import another. */
export const ADAPTERS = ['claude-ide', 'clio', 'copilot-cli', 'gemini-ide', 'native'];

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export const boundaries = [
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: restrict(
      ['**/src-main/**', 'electron', 'node:*'],
      'The renderer sees main only through the AppApi contract in shared/.',
    ),
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrict(
      ['**/src-main/**', '**/src-renderer/**', 'electron', 'node:*'],
      'shared/ runs everywhere (main, renderer, CLI): no Node or Electron APIs, nothing from the halves.',
    ),
  },
  {
    files: ['src-main/core/**/*.ts'],
    rules: restrict(
      [
        'electron',
        '**/bridge/**',
        '**/headless/**',
        '**/desktop/**',
        '**/cli/**',
        '**/loopback/**',
        '**/runtime',
        '**/src-renderer/**',
      ],
      'core knows nothing of sockets, windows or commands: it imports only core and shared.',
    ),
  },
  {
    files: ['src-main/cli/**/*.ts'],
    rules: restrict(
      ['electron', '**/desktop/**', '**/src-renderer/**', '**/bridge/**', '**/headless/**'],
      'The difftray command speaks the protocol from shared/ (and Electron is only in desktop): not bridge.',
    ),
  },
  {
    files: ['src-main/{bridge,headless,loopback}/**/*.ts'],
    rules: restrict(
      ['electron', '**/desktop/**', '**/src-renderer/**'],
      'Electron is imported only under src-main/desktop/.',
    ),
  },
  ...ADAPTERS.map((adapter) => ({
    files: [`src-main/bridge/${adapter}/**/*.ts`],
    rules: restrict(
      [
        'electron',
        '**/desktop/**',
        '**/src-renderer/**',
        ...ADAPTERS.filter((other) => other !== adapter).flatMap((other) => [
          `../${other}`,
          `../${other}/**`,
          `**/bridge/${other}/**`,
        ]),
      ],
      'An adapter may not import another adapter (nor Electron): share through core, shared or loopback.',
    ),
  })),
];
