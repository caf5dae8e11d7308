/**
 * Links in the workspace lead nowhere outside it: watch mode does not take a .gitignore that is a link
 * (to a file outside, or swapped in while watching) as rules, and get_file_tree's walk outside git never
 * lists a folder that is swapped for a link to outside while it walks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../shared/app-api';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

let t: TestRuntime | undefined;
let child: ChildProcess | undefined;
let client: RawNative | undefined;
const logged: string[] = [];
afterEach(async () => {
  child?.kill();
  child = undefined;
  client?.close();
  client = undefined;
  await t?.close();
  t = undefined;
});

/** The folder beside the workspace, outside it. */
const outsideOf = (workspace: string) => path.join(path.dirname(workspace), 'outside');

async function watching(prepare: (workspace: string, outside: string) => void): Promise<TestRuntime> {
  logged.length = 0;
  t = await startTestRuntime({
    watchQuietMs: 150,
    log: (line) => logged.push(line),
    beforeStart: (home) => {
      const workspace = path.join(path.dirname(home), 'workspace');
      mkdirSync(outsideOf(workspace), { recursive: true });
      prepare(workspace, outsideOf(workspace));
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders: ['.'] }));
    },
  });
  return t;
}

const watchReview = (rt: TestRuntime, file: string) =>
  waitForReview(
    rt.runtime.core,
    (review: ReviewSummary) =>
      review.client.name === 'Changes on disk' && review.files.some((entry) => entry.path === file),
  );
const names = (rt: TestRuntime, review: ReviewSummary) =>
  review.files.map((file) => path.relative(rt.workspace, file.path)).sort();

describe('watch mode and a .gitignore that is a link', () => {
  it('a .gitignore linked to a file outside is not read: what it names is still reviewed, and the log says why', async () => {
    const rt = await watching((workspace, outside) => {
      writeFileSync(path.join(outside, 'rules'), 'secret.txt\n');
      symlinkSync(path.join(outside, 'rules'), path.join(workspace, '.gitignore'));
    });
    writeFileSync(path.join(rt.workspace, 'secret.txt'), 'still reviewed\n');
    writeFileSync(path.join(rt.workspace, 'a.txt'), 'reviewed\n');
    const review = await watchReview(rt, path.join(rt.workspace, 'a.txt'));
    expect(names(rt, review)).toEqual(['a.txt', 'secret.txt']);
    expect(logged.join('\n')).toContain(
      `${path.join(rt.workspace, '.gitignore')} not read (a symbolic link), its rules do not apply`,
    );
  });

  it('a .gitignore swapped for a link while watching is not read either', async () => {
    const rt = await watching((workspace, outside) => {
      writeFileSync(path.join(outside, 'rules'), 'secret.txt\n');
      writeFileSync(path.join(workspace, '.gitignore'), 'build.log\n');
    });
    rmSync(path.join(rt.workspace, '.gitignore'));
    symlinkSync(path.join(outsideOf(rt.workspace), 'rules'), path.join(rt.workspace, '.gitignore'));
    writeFileSync(path.join(rt.workspace, 'secret.txt'), 'still reviewed\n');
    writeFileSync(path.join(rt.workspace, 'a.txt'), 'reviewed\n');
    const review = await watchReview(rt, path.join(rt.workspace, 'a.txt'));
    expect(names(rt, review)).toContain('secret.txt');
  });
});

describe("get_file_tree's walk outside git", () => {
  it('never lists the files of a folder swapped for a link to outside while it walks', async () => {
    t = await startTestRuntime();
    const ws = (name: string) => path.join(t!.workspace, name);
    const outside = outsideOf(t.workspace);
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'not yours\n');
    writeFileSync(ws('a.txt'), 'a\n');
    mkdirSync(ws('d'));
    writeFileSync(ws('d/inner.txt'), 'inner\n');
    // Another process swaps `d` for a link to outside and back, over and over, as fast as it can.
    const swapper = `
      const fs = require('node:fs');
      const [d, kept, outside] = process.argv.slice(1);
      for (;;) {
        fs.renameSync(d, kept);
        fs.symlinkSync(outside, d);
        fs.unlinkSync(d);
        fs.renameSync(kept, d);
      }`;
    child = spawn(process.execPath, ['-e', swapper, ws('d'), ws('kept'), outside], { stdio: 'ignore' });

    const { native } = t.runtime;
    client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
    expect((await client.request('hello', { client_name: 'tree-agent' })).type).toBe('response');
    const seen = new Set<string>();
    // Bounded effort, not a timing check: the answer must hold however many rounds run.
    const until = Date.now() + 4_000;
    for (let round = 0; round < 200 && Date.now() < until; round++) {
      const answer = await client.request('get_file_tree', {});
      expect(answer.type).toBe('response');
      for (const file of answer.payload.files as string[]) seen.add(file);
      if (seen.has('d/secret.txt')) break;
    }
    child.kill();
    expect([...seen].filter((file) => file.endsWith('secret.txt'))).toEqual([]);
    expect(seen).toContain('a.txt');
  }, 30_000);
});
