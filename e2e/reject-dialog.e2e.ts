/**
 * The Reject dialog says what rejecting will do for this review, and then that is what happens (real
 * Chromium, the real headless app, real protocol clients): a change already in the working tree (the
 * case of `difftray review` after an agent wrote the files) is reverted there and the client is told
 * why; a change not written yet (Claude Code's openDiff) stays unwritten, and the reason stays in History.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER } from '../shared/native-protocol';
import { texts } from '../test/support/claude-client';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { RawNative } from '../test/support/raw-native';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();
const { writeWorkspaceFile, diffReady } = session;

const rejectDialog = () => session.page.getByRole('dialog', { name: 'Reject review' });

describe('the Reject dialog', () => {
  it('a change already on disk: says it is reverted in the working tree, and it is; the client hears why', async () => {
    const { page } = session;
    // The agent already wrote the file; the review is of what it wrote (new side on disk).
    const file = writeWorkspaceFile('written.txt', PROPOSED);
    const { native } = session.app.runtime;
    const client = await RawNative.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
    await client.request('hello', { client_name: 'difftray review', client_version: '1.0' });
    const proposed = await client.request('propose_change_set', {
      title: 'Already written',
      files: [{ path: 'written.txt', before: BASE, after: PROPOSED }],
    });
    expect(proposed.type).toBe('response');
    await diffReady('Already written');

    await page.getByRole('button', { name: 'Reject…' }).click();
    const words = rejectDialog().getByTestId('reject-consequence');
    expect(await words.textContent()).toBe(
      'The change is already on disk: rejecting reverts it in the working tree. ' +
        'difftray review is told why: the reason goes back with the rejection.',
    );
    await rejectDialog().getByRole('textbox', { name: 'Reason' }).fill('not this way');
    await rejectDialog().getByRole('button', { name: 'Reject review' }).click();
    const result = (await client.nextPush()).payload as { status: string; reason?: string };
    expect(result).toMatchObject({ status: 'rejected', reason: 'not this way' });
    expect(readFileSync(file, 'utf8')).toBe(BASE);
    client.close();
  });

  it("a change not written yet (Claude Code's openDiff): the agent writes nothing; the reason is kept in History", async () => {
    const { page } = session;
    const file = writeWorkspaceFile('later.txt', BASE);
    const answer = session.openDiff(file, PROPOSED, 'later.txt (edit)');
    await diffReady('later.txt');

    await page.getByRole('button', { name: 'Reject…' }).click();
    expect(await rejectDialog().getByTestId('reject-consequence').textContent()).toBe(
      'The agent writes nothing: the files stay as they are. ' +
        "Claude Code's IDE protocol can't carry a note to the agent. The reason is kept in History.",
    );
    await rejectDialog().getByRole('button', { name: 'Reject review' }).click();
    expect(texts(await answer)[0]).toBe('DIFF_REJECTED');
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });
});
