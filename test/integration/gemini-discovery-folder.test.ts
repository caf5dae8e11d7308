/**
 * Gemini CLI's discovery folder is `<tmp>/gemini/ide`, in the temp folder every user shares: another user
 * can make `<tmp>/gemini` first and then read or swap what DiffTray writes there. DiffTray writes its
 * discovery file only when both folders are its user's own and no one else may write them; otherwise it
 * logs why and what to do, and runs on without it. The real runtime on a temp folder standing in for /tmp.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

let t: TestRuntime | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Starts the runtime after `prepare(<tmp>)`; what it logged. */
async function startWith(prepare: (tmp: string) => void): Promise<string[]> {
  const logged: string[] = [];
  t = await startTestRuntime({
    log: (message) => logged.push(message),
    beforeStart: (home) => prepare(path.join(path.dirname(home), 'tmp')),
  });
  return logged;
}

const geminiFiles = () => (existsSync(t!.geminiDiscoveryDir) ? readdirSync(t!.geminiDiscoveryDir) : []);

describe.runIf(process.platform !== 'win32')('the Gemini discovery folder in the shared temp folder', () => {
  it('made by DiffTray when missing: both folders ours and not writable by others; the file is written', async () => {
    await startWith(() => {});
    expect(geminiFiles()).toEqual([expect.stringMatching(/^gemini-ide-server-\d+-\d+\.json$/)]);
    for (const folder of [path.dirname(t!.geminiDiscoveryDir), t!.geminiDiscoveryDir]) {
      expect(statSync(folder).mode & 0o022).toBe(0);
    }
  });

  it('checked again at each rewrite: made writable by others meanwhile, the file is not rewritten', async () => {
    const logged = await startWith(() => {});
    const [name] = geminiFiles();
    const file = path.join(t!.geminiDiscoveryDir, name!);
    const before = readFileSync(file, 'utf8');
    chmodSync(path.dirname(t!.geminiDiscoveryDir), 0o777);
    const more = path.join(path.dirname(t!.workspace), 'more');
    mkdirSync(more);
    await t!.runtime.handler('addWorkspaceFolder', { folder: more });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(logged).toContainEqual(expect.stringMatching(/not updated: .*may be written by other users/));
  });

  it('attack: <tmp>/gemini writable by everyone (made first by someone else): no file, and the log says what to do', async () => {
    const logged = await startWith((tmp) => {
      mkdirSync(path.join(tmp, 'gemini', 'ide'), { recursive: true });
      chmodSync(path.join(tmp, 'gemini'), 0o777);
    });
    expect(geminiFiles()).toEqual([]);
    expect(logged).toContainEqual(
      expect.stringMatching(
        /^bridge: no discovery file for Gemini CLI: .*gemini may be written by other users \(mode 777\).*Run: chmod go-w /,
      ),
    );
  });

  it('attack: <tmp>/gemini/ide writable by its group: no file', async () => {
    const logged = await startWith((tmp) => {
      mkdirSync(path.join(tmp, 'gemini', 'ide'), { recursive: true });
      chmodSync(path.join(tmp, 'gemini', 'ide'), 0o775);
    });
    expect(geminiFiles()).toEqual([]);
    expect(logged).toContainEqual(expect.stringMatching(/ide may be written by other users \(mode 775\)/));
  });

  // Needs a second user: run as root, the folder is given to nobody (65534).
  it.runIf(process.getuid?.() === 0)('attack: <tmp>/gemini owned by another user: no file', async () => {
    const logged = await startWith((tmp) => {
      mkdirSync(path.join(tmp, 'gemini', 'ide'), { recursive: true });
      chownSync(path.join(tmp, 'gemini'), 65534, 65534);
    });
    expect(geminiFiles()).toEqual([]);
    expect(logged).toContainEqual(
      expect.stringMatching(
        /gemini belongs to another user \(uid 65534, not 0\).*Remove .* or run DiffTray and Gemini CLI with TMPDIR/,
      ),
    );
  });
});
