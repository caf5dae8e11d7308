/**
 * Comments on lines (issue 26), as a person makes them in Chromium against the real headless app, with a
 * script speaking DiffTray's native protocol over WebSocket: a click on a line number or the comment key
 * opens a box under the line; the comment is saved, edited and removed there, counted in the review's
 * header, and the change_set_result carries exactly the comments left, each with the file as the client
 * named it, its 1-based line and the line quoted.
 */
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER, NATIVE_PROTOCOL_VERSION } from '../shared/native-protocol';
import { screenshot } from '../test/support/chromium';
import { JsonSocket, type JsonMessage } from '../test/support/json-socket';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';
/** Two hunks: line 1 and line 9. */
const PROPOSED = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nNINE\nten\n';

/** A script on DiffTray's own protocol: envelopes over one WebSocket, answers matched by message_id. */
async function nativeClient(name: string) {
  const { native } = session.app.runtime;
  const socket = await JsonSocket.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
  let next = 1;
  const request = async (command: string, payload: unknown): Promise<JsonMessage> => {
    const message_id = `m${next++}`;
    socket.send({ protocol_version: NATIVE_PROTOCOL_VERSION, message_id, type: 'request', command, payload });
    return socket.waitFor(
      (m) => m.message_id === message_id && (m.type === 'response' || m.type === 'error_response'),
    );
  };
  expect((await request('hello', { client_name: name, client_version: '1.0' })).type).toBe('response');
  return {
    socket,
    request,
    push: (command: string) => socket.waitFor((m) => m.type === 'push' && m.command === command),
  };
}

const modified = () => session.page.getByTestId('diff-editor').locator('.editor.modified');
const lineNumber = (line: number) =>
  modified()
    .locator('.line-numbers')
    .filter({ hasText: new RegExp(`^${line}$`) });
const commentOn = (line: number) => session.page.getByRole('group', { name: `Comment on line ${line}` });
const count = () => session.page.getByTestId('comment-count');

describe('comments on lines', () => {
  it('are added from a line number and the comment key, edited, removed, and sent with Submit', async () => {
    const { page } = session;
    session.writeWorkspaceFile('numbers.txt', BASE);
    const script = await nativeClient('release-script');
    const proposed = await script.request('propose_change_set', {
      title: 'Shout two numbers',
      files: [{ path: 'numbers.txt', after: PROPOSED }],
    });
    expect(proposed.type).toBe('response');
    await session.diffReady('Shout two numbers');
    expect(await count().count()).toBe(0);

    // A click on line 9's number opens a box under it; the text goes to main on Save.
    await lineNumber(9).click();
    const box = commentOn(9).getByRole('textbox');
    await box.waitFor();
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    // The review keys stay out of the way while typing: j, k, u, c are letters here.
    await page.keyboard.type('make it lower case, just like the rest');
    await commentOn(9).getByRole('button', { name: 'Save' }).click();
    await commentOn(9).getByText('make it lower case, just like the rest').waitFor();
    await expect.poll(() => count().textContent()).toBe(' · 1 comment');
    // Shown under its line: below line 9's text, above line 10's.
    const [nine, ten, shown] = await Promise.all(
      [lineNumber(9), lineNumber(10), commentOn(9)].map((locator) => locator.boundingBox()),
    );
    expect(shown!.y).toBeGreaterThanOrEqual(nine!.y + nine!.height - 1);
    expect(shown!.y + shown!.height).toBeLessThanOrEqual(ten!.y + 1);
    await screenshot(page, 'comment-on-a-line');

    // Edited in place; Ctrl+Enter saves.
    await commentOn(9).getByRole('button', { name: 'Edit' }).click();
    const editing = commentOn(9).getByRole('textbox');
    expect(await editing.inputValue()).toBe('make it lower case, just like the rest');
    await editing.fill('keep nine lower case');
    await editing.press('Control+Enter');
    await commentOn(9).getByText('keep nine lower case').waitFor();
    await expect
      .poll(() => core().summary(reviewId()).comments)
      .toEqual([{ fileIndex: 0, side: 'proposed', line: 8, text: 'keep nine lower case' }]);

    // A second one with the key, on the line of the cursor; Escape on a third cancels it.
    await modified().locator('.view-lines').getByText('ONE', { exact: true }).click();
    await page.keyboard.press('c');
    const second = commentOn(1).getByRole('textbox');
    await second.waitFor();
    await expect.poll(() => second.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('no shouting');
    await page.keyboard.press('Control+Enter');
    await commentOn(1).getByText('no shouting').waitFor();
    await expect.poll(() => count().textContent()).toBe(' · 2 comments');
    await lineNumber(5).click();
    await commentOn(5).getByRole('textbox').waitFor();
    await page.keyboard.press('Escape');
    await commentOn(5).waitFor({ state: 'detached' });
    // Still pending: the Ctrl+Enter inside a comment box did not submit the review.
    expect(core().summary(reviewId()).state).toBe('pending');

    // Removed.
    await commentOn(9).getByRole('button', { name: 'Remove' }).click();
    await commentOn(9).waitFor({ state: 'detached' });
    await expect.poll(() => count().textContent()).toBe(' · 1 comment');

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const result = (await script.push('change_set_result')).payload as Record<string, unknown>;
    expect(result.status).toBe('accepted');
    expect(result.comments).toEqual([
      { path: 'numbers.txt', side: 'proposed', line: 1, quote: 'ONE', text: 'no shouting' },
    ]);

    // History keeps it: counted in the list, shown under its line, no longer changeable.
    await page.getByRole('tab', { name: 'History' }).click();
    const entry = page
      .getByTestId('history')
      .locator('[data-state="accepted"]', { hasText: 'Shout two numbers' });
    await entry.getByText('1 comment on lines').waitFor();
    await entry.click();
    await commentOn(1).getByText('no shouting').waitFor();
    expect(await commentOn(1).getByRole('button').count()).toBe(0);
    script.socket.close();
  });
});

const core = () => session.app.runtime.core.queue;
const reviewId = () => core().items()[0]!.id;
