/**
 * History's words for a change already on disk once it was rejected (real Chromium, the real headless
 * app, a raw native client standing for `difftray review` of a working tree): "Rejected — reverted"
 * only when DiffTray put the file back; when the person changed the file meanwhile the revert is refused
 * and History says it was not reverted; a client that writes its own files is said to have it left to
 * it, and the Reject dialog says so before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER } from '../shared/native-protocol';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { RawNative } from '../test/support/raw-native';
import { useReviewSession } from './support/review-session';

const session = useReviewSession();
const { writeWorkspaceFile, diffReady } = session;

const rejectDialog = () => session.page.getByRole('dialog', { name: 'Reject review' });

/** A change `name` already holds on disk, proposed after the fact by a native client; answers the client. */
async function writtenChange(name: string, title: string, writer?: 'client'): Promise<RawNative> {
  writeWorkspaceFile(name, PROPOSED);
  const { native } = session.app.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
  await client.request('hello', { client_name: 'difftray review', client_version: '1.0' });
  const proposed = await client.request('propose_change_set', {
    title,
    files: [{ path: name, before: BASE, after: PROPOSED }],
    ...(writer && { writer }),
  });
  expect(proposed.type).toBe('response');
  await diffReady(title);
  return client;
}

/** Rejects the review on screen through the Reject dialog; answers what the dialog said would happen. */
async function rejectOnScreen(client: RawNative): Promise<string | null> {
  // The toolbar's: a file changed on disk shows a second Reject… in its banner.
  await session.page.getByTestId('toolbar').getByRole('button', { name: 'Reject…' }).click();
  const said = await rejectDialog().getByTestId('reject-consequence').textContent();
  await rejectDialog().getByRole('button', { name: 'Reject review' }).click();
  await client.nextPush();
  return said;
}

/** History's entry for the review titled `title`. */
async function historyEntry(title: string) {
  const { page } = session;
  await page.getByRole('tab', { name: /History/ }).click();
  const history = page.getByRole('navigation', { name: 'Review history' });
  // The entry itself, not its "Undo changes on disk of …" button (a revert is undoable too).
  return history.locator('button.dt-queue-item-ended', { hasText: title });
}

/** History's label for the review titled `title`. */
async function historyLabel(title: string): Promise<string | null> {
  return (await historyEntry(title)).locator('.dt-ended-label').textContent();
}

describe('History after a change already on disk was rejected', () => {
  it('reverted by DiffTray: "Rejected — reverted", and the banner says so', async () => {
    const client = await writtenChange('done.txt', 'Reverted change');
    await rejectOnScreen(client);
    expect(readFileSync(session.app.workspace + '/done.txt', 'utf8')).toBe(BASE);
    await expect.poll(() => historyLabel('Reverted change')).toBe('Rejected — reverted');
    // Opened from History, the review says the same above its diff.
    await (await historyEntry('Reverted change')).click();
    const banner = session.page.getByTestId('ended-banner').locator('strong');
    expect(await banner.textContent()).toBe('Rejected. DiffTray reverted the change on disk.');
    client.close();
  });

  it('changed on disk meanwhile: the revert is refused, and History never claims it', async () => {
    const client = await writtenChange('typed.txt', 'Edited since');
    // The person typed in the file after the review arrived: DiffTray must not overwrite it.
    const file = session.app.workspace + '/typed.txt';
    writeFileSync(file, 'the person typed this\n');
    await rejectOnScreen(client);
    expect(readFileSync(file, 'utf8')).toBe('the person typed this\n');
    await expect.poll(() => historyLabel('Edited since')).toBe('Rejected — not reverted (changed on disk)');
    client.close();
  });

  it('a client that writes its own files: the dialog and History say DiffTray leaves it on disk', async () => {
    const client = await writtenChange('own.txt', 'Its own write', 'client');
    const said = await rejectOnScreen(client);
    expect(said).toMatch(/^The agent already wrote this change itself: DiffTray leaves it on disk/);
    expect(readFileSync(session.app.workspace + '/own.txt', 'utf8')).toBe(PROPOSED);
    await expect.poll(() => historyLabel('Its own write')).toBe('Rejected — left to the agent');
    client.close();
  });
});
