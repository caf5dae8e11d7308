/**
 * `difftray review` against a paired DiffTray plans the review on this host: the folder the review runs
 * in is its boundary, as a workspace is for a local DiffTray. A patch path that leaves it — `../`, or a
 * link inside pointing out — is left out with the reason and never read, sent or written.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planRemoteReview } from '../../src-main/cli/remote-review';
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
