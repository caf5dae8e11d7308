/**
 * Lint refuses, in every room, what that room may not import (eslint/boundaries.js), and lets through
 * what it may. Each probe is a real file written where such a file would live, some in subfolders that
 * do not exist yet (core/review/, src-renderer/state/: a room is matched by its prefix), linted by
 * ESLint's Node API with the repository's own configuration, then removed. The probes' names start with
 * `.lint-probe`, which .gitignore and the lint config leave out, and carry this process's id.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, ROOMS } from '../../eslint/boundaries.js';

const ROOT = path.resolve(__dirname, '..', '..');
const TAG = `.lint-probe-${process.pid}`;

interface Probe {
  /** The room whose refusal is expected (its `why` is in the message); only for refused probes. */
  room?: string;
  /** The folder the probe is written in, from the root; `scratch(room, sub)` is a new one, removed after. */
  folder: string;
  /** What it imports: a path from the root (resolved into a relative import), or a module as written. */
  imports: { path: string } | { module: string };
  /** How: a plain import, a type-only one, a re-export, or a dynamic import. */
  form?: 'import' | 'type' | 'reexport' | 'dynamic';
}

const scratch = (room: string, sub = '') => path.posix.join(room, TAG, sub);
const nextAdapter = (adapter: string) => ADAPTERS[(ADAPTERS.indexOf(adapter) + 1) % ADAPTERS.length]!;

/** Imports each room may not make: the holes first, then at least one per room. */
const REFUSED: Probe[] = [
  { room: 'core', folder: scratch('src-main/core', 'review'), imports: { path: 'src-main/launch-options' } },
  { room: 'core', folder: 'src-main/core', imports: { module: 'ws' } },
  { room: 'shared', folder: 'shared', imports: { module: 'fs' } },
  { room: 'renderer', folder: scratch('src-renderer', 'state'), imports: { module: 'fs' } },
  { room: 'renderer', folder: 'src-renderer', imports: { module: 'crypto' } },
  { room: 'loopback', folder: 'src-main/loopback', imports: { path: 'src-main/bridge/bridge-server' } },
  { room: 'loopback', folder: 'src-main/loopback', imports: { path: 'src-main/cli/client' } },
  { room: 'shared', folder: 'shared', imports: { path: 'src-main/core/app-core' }, form: 'type' },
  { room: 'shared', folder: 'shared', imports: { module: 'node:path' } },
  { room: 'shared', folder: 'shared', imports: { module: 'electron' } },
  {
    room: 'core',
    folder: scratch('src-main/core', 'undo'),
    imports: { path: 'src-main/bridge/bridge-server' },
  },
  { room: 'core', folder: 'src-main/core', imports: { module: 'node:net' } },
  { room: 'core', folder: 'src-main/core', imports: { module: 'electron' } },
  { room: 'core', folder: 'src-main/core', imports: { path: 'src-main/runtime' }, form: 'dynamic' },
  { room: 'loopback', folder: 'src-main/loopback', imports: { path: 'src-main/headless/headless-app' } },
  { room: 'bridge', folder: 'src-main/bridge', imports: { module: 'electron' } },
  { room: 'bridge', folder: 'src-main/bridge', imports: { path: 'src-main/cli/client' } },
  ...ADAPTERS.map((adapter): Probe => ({
    room: 'adapter',
    folder: `src-main/bridge/${adapter}`,
    imports: { path: `src-main/bridge/${nextAdapter(adapter)}` },
    form: 'reexport',
  })),
  { room: 'adapter', folder: 'src-main/bridge/native', imports: { module: 'electron' } },
  { room: 'cli', folder: 'src-main/cli', imports: { path: 'src-main/bridge/native/endpoint' } },
  { room: 'cli', folder: 'src-main/cli', imports: { module: 'electron' } },
  { room: 'headless', folder: 'src-main/headless', imports: { path: 'src-main/desktop/main' } },
  { room: 'headless', folder: 'src-main/headless', imports: { module: 'electron' } },
  { room: 'desktop', folder: 'src-main/desktop', imports: { path: 'src-renderer/store' } },
  { room: 'desktop', folder: 'src-main/desktop', imports: { path: 'src-main/cli/main' } },
  { room: 'app', folder: 'src-main', imports: { path: 'src-main/desktop/main' } },
  { room: 'app', folder: 'src-main', imports: { module: 'electron' } },
  { room: 'renderer', folder: 'src-renderer', imports: { path: 'src-main/core/app-core' }, form: 'type' },
  { room: 'renderer', folder: 'src-renderer', imports: { module: 'node:fs' } },
  { room: 'renderer', folder: 'src-renderer', imports: { module: 'electron' } },
  { room: 'e2e', folder: scratch('e2e', 'support'), imports: { path: 'bench/support/page-server' } },
  { room: 'bench', folder: 'bench', imports: { path: 'e2e/support/review-session' } },
  { room: 'scripts', folder: 'scripts', imports: { path: 'src-main/core/app-core' } },
  { room: 'eslint', folder: 'eslint', imports: { path: 'src-main/core/app-core' } },
];

/** Imports each room may make: without them, a probe refused for being a probe would pass as refused. */
const ALLOWED: Probe[] = [
  { folder: 'shared', imports: { module: 'zod' } },
  { folder: scratch('shared', 'claude-code'), imports: { path: 'shared/hunks' } },
  { folder: scratch('src-main/core', 'review'), imports: { path: 'src-main/core/app-core' } },
  { folder: scratch('src-main/core', 'review'), imports: { path: 'shared/hunks' }, form: 'type' },
  { folder: 'src-main/core', imports: { module: 'node:fs/promises' } },
  { folder: 'src-main/loopback', imports: { path: 'src-main/core/peer-process' } },
  { folder: 'src-main/loopback', imports: { module: 'ws' } },
  { folder: 'src-main/bridge', imports: { path: 'src-main/bridge/clio' } },
  { folder: 'src-main/bridge', imports: { module: '@modelcontextprotocol/sdk/types.js' } },
  ...ADAPTERS.flatMap((adapter): Probe[] => [
    {
      folder: scratch(`src-main/bridge/${adapter}`, 'tools'),
      imports: { path: `src-main/bridge/${adapter}/endpoint` },
    },
    { folder: `src-main/bridge/${adapter}`, imports: { path: 'src-main/bridge/lock-files' } },
  ]),
  { folder: 'src-main/cli', imports: { path: 'shared/native-protocol' } },
  { folder: 'src-main/cli', imports: { path: 'package.json' } },
  { folder: 'src-main/headless', imports: { path: 'src-main/runtime' } },
  { folder: 'src-main/headless', imports: { path: 'src-main/loopback/auth' } },
  { folder: 'src-main/desktop', imports: { module: 'electron' } },
  { folder: 'src-main/desktop', imports: { path: 'src-main/runtime' } },
  { folder: 'src-main', imports: { path: 'src-main/bridge/native' } },
  { folder: 'src-main', imports: { path: 'src-main/core/app-core' } },
  { folder: scratch('src-renderer', 'state'), imports: { path: 'src-renderer/store' } },
  { folder: scratch('src-renderer', 'views'), imports: { path: 'shared/app-api' }, form: 'type' },
  { folder: 'src-renderer', imports: { module: 'monaco-editor/esm/vs/editor/editor.worker?worker' } },
  { folder: 'src-renderer', imports: { module: 'react' } },
  { folder: 'test', imports: { path: 'src-main/core/app-core' } },
  { folder: 'test', imports: { module: 'node:child_process' } },
  { folder: 'e2e', imports: { path: 'test/support/temp' } },
  { folder: 'bench', imports: { path: 'src-renderer/store' } },
  { folder: 'scripts', imports: { path: 'eslint/boundaries.js' } },
  { folder: 'eslint', imports: { module: 'node:path' } },
];

/** The import as written in `file`. */
function specifierFor(probe: Probe, file: string): string {
  if ('module' in probe.imports) return probe.imports.module;
  const relative = path
    .relative(path.dirname(file), path.join(ROOT, probe.imports.path))
    .split(path.sep)
    .join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

function sourceFor(probe: Probe, specifier: string): string {
  switch (probe.form ?? 'import') {
    case 'import':
      return `import '${specifier}';\n`;
    case 'type':
      return `import type { Probed } from '${specifier}';\nexport type { Probed };\n`;
    case 'reexport':
      return `export * from '${specifier}';\n`;
    case 'dynamic':
      return `export const probed = () => import('${specifier}');\n`;
  }
}

interface Written {
  probe: Probe;
  file: string;
  specifier: string;
}

/** Every file and folder the probes made, removed after. */
const made = new Set<string>();

/** Writes each probe, named by its kind and place in its list. */
function writeProbes(probes: Probe[], kind: string): Written[] {
  return probes.map((probe, index) => {
    const folder = path.join(ROOT, probe.folder);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${TAG}-${kind}-${index}.${probe.folder === 'eslint' ? 'js' : 'ts'}`);
    // A probe in a new folder goes with that folder; one in an existing folder alone.
    made.add(probe.folder.includes(TAG) ? path.join(ROOT, probe.folder.split(TAG)[0]!, TAG) : file);
    const specifier = specifierFor(probe, file);
    writeFileSync(file, sourceFor(probe, specifier));
    return { probe, file, specifier };
  });
}

let refused: Written[] = [];
let allowed: Written[] = [];
/** A new folder of main's that no room names yet. */
const ROOMLESS = path.join(ROOT, 'src-main', TAG, 'x.ts');
let results: ESLint.LintResult[] = [];

const messagesOf = (file: string) => results.find((result) => result.filePath === file)?.messages ?? [];
const roomMessages = (file: string) =>
  messagesOf(file).filter((message) => message.ruleId === 'boundaries/room-imports');

beforeAll(async () => {
  refused = writeProbes(REFUSED, 'refused');
  allowed = writeProbes(ALLOWED, 'allowed');
  mkdirSync(path.dirname(ROOMLESS), { recursive: true });
  made.add(path.dirname(ROOMLESS));
  writeFileSync(ROOMLESS, "export const probed = 'nothing imported';\n");
  const files = [...refused, ...allowed].map((w) => w.file);
  // `ignore: false`: the config ignores probes, so that one left by a killed run cannot fail `npm run lint`.
  results = await new ESLint({ cwd: ROOT, ignore: false }).lintFiles([...files, ROOMLESS]);
}, 120_000);

afterAll(() => {
  for (const entry of made) rmSync(entry, { recursive: true, force: true });
});

describe('lint probes, one file per import', () => {
  it('every probe was linted, none ignored, none unparsable', () => {
    expect(results).toHaveLength(REFUSED.length + ALLOWED.length + 1);
    for (const result of results) {
      expect(result.messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
    }
  });

  it.each(REFUSED.map((probe, index) => [index, probe.folder, probe.imports] as const))(
    'refused #%i: %s imports %j',
    (index) => {
      const { probe, file, specifier } = refused[index]!;
      const messages = roomMessages(file).map((m) => m.message);
      expect(messages).toHaveLength(1);
      const room = ROOMS.find((r) => r.room === probe.room)!;
      expect(messages[0]).toContain(`may not import '${specifier}'`);
      expect(messages[0]).toContain(room.why);
      expect(messages[0]).toContain('(eslint/boundaries.js)');
    },
  );

  it.each(ALLOWED.map((probe, index) => [index, probe.folder, probe.imports] as const))(
    'allowed #%i: %s imports %j',
    (index) => {
      expect(roomMessages(allowed[index]!.file)).toEqual([]);
    },
  );

  it('a file in a folder no room names is refused until one does', () => {
    expect(roomMessages(ROOMLESS).map((m) => m.message)).toEqual([
      expect.stringMatching(/is in no room of eslint\/boundaries\.js/),
    ]);
  });
});
