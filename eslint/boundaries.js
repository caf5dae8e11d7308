/**
 * The house rules as lint (docs/ARCHITECTURE.md, "Who may import whom"): each room of the repository,
 * the rooms and the modules its files may import, and nothing else. The model is VS Code's
 * code-layering / code-import-patterns: an allow-list per layer, checked on the resolved path of every
 * import (type-only ones too), so a file moved into a subfolder of its room needs no rule change.
 * eslint/room-imports.js is the rule; test/unit/lint-boundaries.test.ts and lint-room-probes.test.ts
 * prove it refuses; scripts/architecture-table.mjs prints the doc's table from ROOMS.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, roomImportsRule } from './room-imports.js';

/**
 * One folder per protocol under src-main/bridge/ (bridge/'s own files are what they share); none may
 * import another. Read from the tree, so a new adapter folder is kept apart without an edit here;
 * test/unit/protocol-descriptors.test.ts checks each folder is some protocol descriptor's adapter.
 */
export const ADAPTERS = readdirSync(path.join(ROOT, 'src-main', 'bridge'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Every Node built-in. */
const NODE = 'node:*';

/**
 * The rooms. For each:
 * - `room`: its name, as other rooms' `rooms` lists name it;
 * - `paths`: where its files are, from the repository's root: `folder/` is the folder and everything
 *   under it, `*` any name within one folder; the longest pattern that matches a file wins, so an
 *   adapter's folder is its own room inside bridge/;
 * - `rooms`: the rooms its files may import: `itself` is the same folder the file is in (for a room of
 *   several folders, as the adapters are), `*` any room but those in `except`;
 * - `modules`: the packages (any of their subpaths) and Node built-ins (`node:fs` for fs and
 *   fs/promises, written with or without `node:`) it may import; `*` any;
 * - `why`: said with each refusal.
 */
export const ROOMS = [
  {
    room: 'shared',
    paths: ['shared/'],
    rooms: ['shared', 'package.json'],
    modules: ['zod', 'diff'],
    why: 'shared/ runs everywhere (main, renderer, CLI): no Node or Electron APIs, nothing from the halves.',
  },
  {
    room: 'core',
    paths: ['src-main/core/'],
    rooms: ['core', 'shared'],
    modules: [
      'zod',
      'ignore',
      'jsonc-parser',
      'node:child_process',
      'node:crypto',
      'node:fs',
      'node:os',
      'node:path',
      'node:url',
      'node:util',
      'node:worker_threads',
    ],
    why: 'core knows nothing of sockets, windows or commands: it imports only core and shared.',
  },
  {
    room: 'loopback',
    paths: ['src-main/loopback/'],
    rooms: ['loopback', 'core', 'shared'],
    modules: ['ws', NODE],
    why: 'loopback is the server every endpoint shares: it knows no endpoint (bridge, headless) and no command (cli).',
  },
  {
    room: 'bridge',
    paths: ['src-main/bridge/'],
    rooms: ['bridge', 'adapter', 'loopback', 'core', 'shared'],
    modules: ['@modelcontextprotocol/sdk', 'ws', 'zod', NODE],
    why: "bridge/'s own files are what adapters share, and the bridge port that registers some of them; Electron is imported only under src-main/desktop/.",
  },
  {
    room: 'adapter',
    paths: ADAPTERS.map((adapter) => `src-main/bridge/${adapter}/`),
    rooms: ['itself', 'bridge', 'loopback', 'core', 'shared'],
    modules: ['@modelcontextprotocol/sdk', 'ws', 'zod', 'diff', NODE],
    why: 'An adapter may not import another adapter (nor Electron): share through core, shared or loopback.',
  },
  {
    room: 'cli',
    paths: ['src-main/cli/'],
    rooms: ['cli', 'core', 'shared', 'package.json'],
    modules: ['ws', 'zod', NODE],
    why: 'The difftray command speaks the protocol from shared/ (and Electron is only in desktop): not bridge.',
  },
  {
    room: 'headless',
    paths: ['src-main/headless/'],
    rooms: ['headless', 'app', 'loopback', 'core', 'shared'],
    modules: ['ws', 'zod', NODE],
    why: 'headless serves the renderer over loopback; Electron is imported only under src-main/desktop/.',
  },
  {
    room: 'desktop',
    paths: ['src-main/desktop/'],
    rooms: ['desktop', 'app', 'bridge', 'loopback', 'core', 'shared'],
    modules: ['electron', 'electron-updater', 'zod', NODE],
    why: 'desktop is the Electron shell around the runtime: it reaches the renderer through IPC, not imports.',
  },
  {
    room: 'app',
    paths: ['src-main/*'],
    rooms: ['app', 'bridge', 'adapter', 'loopback', 'core', 'shared'],
    modules: [NODE],
    why: 'The app process (runtime.ts and its start) wires core and the bridge; the shells (desktop, headless) import it, not the other way.',
  },
  {
    room: 'renderer',
    paths: ['src-renderer/'],
    rooms: ['renderer', 'shared'],
    // virtual:editor-steps: Monaco's code in steps, made at build time by scripts/editor-steps.mjs.
    modules: ['react', 'react-dom', 'zustand', 'monaco-editor', 'virtual:editor-steps'],
    why: 'The renderer sees main only through the AppApi contract in shared/, and runs in a browser: no Node.',
  },
  {
    room: 'package.json',
    paths: ['package.json'],
    rooms: [],
    modules: [],
    why: 'package.json imports nothing.',
  },
  {
    room: 'test',
    paths: ['test/'],
    rooms: ['*'],
    modules: ['*'],
    why: 'Tests may import anything.',
  },
  {
    room: 'e2e',
    paths: ['e2e/'],
    rooms: ['*'],
    except: ['bench'],
    modules: ['*'],
    why: 'e2e and bench do not import each other: what both need is in test/support/.',
  },
  {
    room: 'bench',
    paths: ['bench/'],
    rooms: ['*'],
    except: ['e2e'],
    modules: ['*'],
    why: 'e2e and bench do not import each other: what both need is in test/support/.',
  },
  {
    room: 'scripts',
    paths: ['scripts/'],
    rooms: ['scripts', 'eslint', 'package.json'],
    modules: ['*'],
    why: 'Scripts build, start and check the app; they reach its sources through the bundlers, not imports.',
  },
  {
    room: 'eslint',
    paths: ['eslint/'],
    rooms: ['eslint'],
    modules: [NODE],
    why: "The lint rules stand alone: they name the app's paths, they do not import them.",
  },
];

/** The folders whose every file must be in a room (a new folder must be given one). */
export const CHECKED = [...new Set(ROOMS.flatMap((r) => r.paths).map((p) => p.split('/')[0]))].filter(
  (top) => top !== 'package.json',
);

export const boundaries = [
  {
    files: CHECKED.map((top) => `${top}/**/*.{ts,tsx,mts,cts,js,mjs,cjs}`),
    plugins: { boundaries: { rules: { 'room-imports': roomImportsRule(ROOMS) } } },
    rules: { 'boundaries/room-imports': 'error' },
  },
];
