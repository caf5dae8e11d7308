/**
 * Issue 7, finding 7: `kill -9` in the middle of a write or a delete left `.…difftray-<pid>-….tmp` files
 * and, during a delete, the old content under a hidden `…deleting` name, and nothing cleaned them up.
 *
 * A child process writes and deletes through core's writer in a loop and is killed with SIGKILL at a
 * random moment, again and again. After each kill every file must be wholly old or wholly new, and after
 * the next start's recovery (recoverLeftovers, as the runtime runs it) nothing may be left behind.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEndpoints } from '../../src-main/bridge/endpoints';
import { recoverLeftovers } from '../../src-main/core/undo/write-journal';
import { startRuntime } from '../../src-main/runtime';
import { CRASH_TEXTS } from '../support/crash-texts';
import { makeTempDir } from '../support/temp';

const KILLS = 12;

let temp: { dir: string; cleanup: () => void };
let childScript: string;

beforeAll(async () => {
  temp = makeTempDir('crash');
  childScript = path.join(temp.dir, 'apply-loop-child.cjs');
  await build({
    entryPoints: [path.join(__dirname, '..', 'support', 'apply-loop-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: childScript,
    logLevel: 'error',
  });
}, 60_000);

const cleanups: Array<() => void> = [];
afterAll(() => {
  temp.cleanup();
  for (const cleanup of cleanups) cleanup();
});

/** A temp folder removed after the tests, real-path'd. */
function tempRoot(prefix: string): string {
  const made = makeTempDir(prefix);
  cleanups.push(made.cleanup);
  return realpathSync(made.dir);
}

const dead = () => false;

function killMidWrite(workspace: string, journal: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, workspace, journal], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended on its own (${code}): ${stderr}`)),
    );
  });
}

describe('kill -9 in the middle of writes and deletes', () => {
  it(`leaves every file wholly old or wholly new, and nothing behind after the next start (${KILLS} kills)`, async () => {
    const root = realpathSync(temp.dir);
    const workspace = path.join(root, 'ws');
    const journal = path.join(root, 'journal');
    mkdirSync(workspace);
    writeFileSync(path.join(workspace, 'target.txt'), CRASH_TEXTS.a);
    const logs: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      await killMidWrite(workspace, journal, 5 + ((i * 37) % 120));
      const target = readFileSync(path.join(workspace, 'target.txt'), 'utf8');
      expect([CRASH_TEXTS.a, CRASH_TEXTS.b]).toContain(target);

      await recoverLeftovers(journal, dead, (message) => logs.push(message));
      // Only the two files, under their own names; the doomed file is there whole, or not at all.
      const names = readdirSync(workspace).sort();
      expect(names.filter((name) => name !== 'doomed.txt')).toEqual(['target.txt']);
      if (names.includes('doomed.txt')) {
        expect(readFileSync(path.join(workspace, 'doomed.txt'), 'utf8')).toBe(CRASH_TEXTS.doomed);
      }
      expect(readdirSync(journal)).toEqual([]);
    }
    // Every message names what was done.
    for (const message of logs) expect(message).toMatch(/^difftray: (removed|put) .* interrupted/);
  }, 120_000);
});

describe('the next start', () => {
  it('the runtime cleans up before it serves anything, and logs what it did', async () => {
    const root = tempRoot('restart');
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    const difftrayHome = path.join(home, '.difftray');
    mkdirSync(workspace);
    mkdirSync(path.join(difftrayHome, 'writes'), { recursive: true });
    const pid = 999_999_990;
    writeFileSync(
      path.join(difftrayHome, 'writes', `${pid}-0123456789ab.json`),
      JSON.stringify({ pid, folder: workspace }),
    );
    writeFileSync(path.join(workspace, `.notes.txt.difftray-${pid}-0123456789ab.deleting`), 'my notes\n');
    writeFileSync(path.join(workspace, `.app.ts.difftray-${pid}-0123456789ab.tmp`), 'half a fi');
    const logs: string[] = [];
    const env = { DIFFTRAY_HOME: difftrayHome, CLAUDE_CONFIG_DIR: path.join(home, '.claude') };
    const runtime = await startRuntime({
      workspaces: [workspace],
      env,
      endpoints: defaultEndpoints(env, home, path.join(root, 'tmp')),
      home,
      log: (message) => logs.push(message),
    });
    try {
      expect(readdirSync(workspace)).toEqual(['notes.txt']);
      expect(readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe('my notes\n');
      expect(logs.filter((m) => m.includes('interrupted'))).toHaveLength(2);
    } finally {
      await runtime.close();
    }
  });
});

describe('recoverLeftovers', () => {
  function setup() {
    const root = tempRoot('recover');
    const folder = path.join(root, 'ws');
    const journal = path.join(root, 'journal');
    mkdirSync(folder);
    mkdirSync(journal);
    return { folder, journal };
  }

  const note = (journal: string, pid: number, folder: string) =>
    writeFileSync(path.join(journal, `${pid}-abcdefabcdef.json`), JSON.stringify({ pid, folder }));

  it('removes temp files, puts deleted files back, keeps beside a name that was taken, touches nothing else', async () => {
    const { folder, journal } = setup();
    const pid = 999_999_991;
    note(journal, pid, folder);
    writeFileSync(path.join(folder, `.a.txt.difftray-${pid}-0123456789ab.tmp`), 'half');
    writeFileSync(path.join(folder, `.b.txt.difftray-${pid}-0123456789ab.deleting`), 'b was here');
    writeFileSync(path.join(folder, `.c.txt.difftray-${pid}-0123456789ab.deleting`), 'old c');
    writeFileSync(path.join(folder, 'c.txt'), 'new c');
    // Another process's names, and names that merely look similar, are not ours to touch.
    writeFileSync(path.join(folder, `.d.txt.difftray-12345-0123456789ab.tmp`), 'someone else');
    writeFileSync(path.join(folder, `.e.txt.difftray-${pid}-xyz.tmp`), 'not our pattern');
    const logs: string[] = [];
    const recovered = await recoverLeftovers(
      journal,
      () => false,
      (m) => logs.push(m),
    );

    expect(recovered.removedTemp).toEqual([path.join(folder, `.a.txt.difftray-${pid}-0123456789ab.tmp`)]);
    expect(recovered.restored).toEqual([path.join(folder, 'b.txt')]);
    expect(readFileSync(path.join(folder, 'b.txt'), 'utf8')).toBe('b was here');
    expect(readFileSync(path.join(folder, 'c.txt'), 'utf8')).toBe('new c');
    expect(recovered.keptAside).toHaveLength(1);
    const [keptAs] = recovered.keptAside[0]!;
    expect(path.basename(keptAs)).toMatch(/^c\.txt\.difftray-kept-/);
    expect(readFileSync(keptAs, 'utf8')).toBe('old c');
    expect(existsSync(path.join(folder, `.d.txt.difftray-12345-0123456789ab.tmp`))).toBe(true);
    expect(existsSync(path.join(folder, `.e.txt.difftray-${pid}-xyz.tmp`))).toBe(true);
    expect(readdirSync(journal)).toEqual([]);
    expect(logs).toHaveLength(3);
  });

  it('leaves the notes of a live process alone (another DiffTray may be writing now)', async () => {
    const { folder, journal } = setup();
    note(journal, 4242, folder);
    writeFileSync(path.join(folder, `.a.txt.difftray-4242-0123456789ab.tmp`), 'in progress');
    await recoverLeftovers(
      journal,
      (pid) => pid === 4242,
      () => {},
    );
    expect(existsSync(path.join(folder, `.a.txt.difftray-4242-0123456789ab.tmp`))).toBe(true);
    expect(readdirSync(journal)).toHaveLength(1);
  });

  it('does not follow a folder swapped for a symlink since the note was written', async () => {
    const { folder, journal } = setup();
    const elsewhere = path.join(path.dirname(folder), 'elsewhere');
    mkdirSync(elsewhere);
    const pid = 999_999_992;
    writeFileSync(path.join(elsewhere, `.x.difftray-${pid}-0123456789ab.tmp`), 'not to be touched');
    const linked = path.join(path.dirname(folder), 'linked');
    symlinkSync(elsewhere, linked);
    note(journal, pid, linked);
    await recoverLeftovers(
      journal,
      () => false,
      () => {},
    );
    expect(existsSync(path.join(elsewhere, `.x.difftray-${pid}-0123456789ab.tmp`))).toBe(true);
  });
});
