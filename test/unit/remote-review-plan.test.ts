/**
 * `difftray review` against a paired DiffTray plans the review on this host: the folder the review runs
 * in is its boundary, as a workspace is for a local DiffTray. A patch path that leaves it — `../`, or a
 * link inside pointing out — is left out with the reason and never read, sent or written. The answer is
 * written with a crash journal, and what a killed earlier run left is cleaned up first.
 */
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
import { afterEach, describe, expect, it } from 'vitest';
import { applyRemoteResult, planRemoteReview } from '../../src-main/cli/remote-review';
import { makeTempDir } from '../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A git-style patch changing `name`'s one line "old" to "new". */
const patchOf = (name: string) =>
  [
    `diff --git a/${name} b/${name}`,
    `--- a/${name}`,
    `+++ b/${name}`,
    '@@ -1 +1 @@',
    '-old',
    '+new',
    '',
  ].join('\n');

function setUp() {
  const temp = makeTempDir('remote-plan');
  cleanups.push(temp.cleanup);
  const root = realpathSync(temp.dir);
  const project = path.join(root, 'project');
  const outside = path.join(root, 'outside');
  mkdirSync(project);
  mkdirSync(outside);
  writeFileSync(path.join(project, 'inside.txt'), 'old\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'old\n');
  symlinkSync(outside, path.join(project, 'link-out'));
  return { project, outside };
}

describe('planRemoteReview', () => {
  it('sends a file inside the folder of the review', async () => {
    const { project } = setUp();
    const plan = await planRemoteReview(patchOf('inside.txt'), project);
    expect(plan.files.map((file) => file.real)).toEqual([path.join(project, 'inside.txt')]);
    expect(plan.leftOut).toEqual([]);
  });

  it.each([['../outside/secret.txt'], ['link-out/secret.txt']])(
    'leaves out %s, which leads outside the folder of the review',
    async (name) => {
      const { project } = setUp();
      const plan = await planRemoteReview(patchOf(name), project);
      expect(plan.files).toEqual([]);
      expect(plan.leftOut).toEqual([
        expect.stringMatching(
          new RegExp(`^error +${name.replace(/\./g, '\\.')}: outside .*project, the folder of this review$`),
        ),
      ]);
    },
  );
});

describe('applyRemoteResult', () => {
  it('cleans up after a run killed mid-write, writes the answer, and leaves no note behind', async () => {
    const { project } = setUp();
    const journal = path.join(path.dirname(project), 'home', '.difftray', 'writes');
    mkdirSync(journal, { recursive: true });
    // A run killed while its temp file existed: the note names its pid (long gone) and the folder.
    const deadPid = 999_999_993;
    const leftover = path.join(project, `.inside.txt.difftray-${deadPid}-0123456789ab.tmp`);
    writeFileSync(leftover, 'half a fi');
    writeFileSync(
      path.join(journal, `${deadPid}-abcdefabcdef.json`),
      JSON.stringify({ pid: deadPid, folder: project }),
    );

    const plan = await planRemoteReview(patchOf('inside.txt'), project);
    const sent = plan.files[0]!;
    const logs: string[] = [];
    const result = await applyRemoteResult(
      plan,
      {
        review_id: 'r-1',
        status: 'accepted',
        files: [{ path: sent.file, status: 'accepted', final_text: 'new\n', disk: 'old_side', hunks: [] }],
      },
      journal,
      (line) => logs.push(line),
    );

    expect(result.files[0]).toMatchObject({ path: 'inside.txt', status: 'applied' });
    expect(readFileSync(path.join(project, 'inside.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(leftover)).toBe(false);
    expect(logs.join('\n')).toMatch(/left by an interrupted write/);
    expect(readdirSync(journal)).toEqual([]);
  });
});
