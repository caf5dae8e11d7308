/**
 * "Undo changes on disk", in Chromium against the headless app: a script on DiffTray's native protocol
 * proposes a change set, the person accepts it in the UI (DiffTray writes it), then presses Undo in
 * History, confirms with the files named, and the file on disk is back, bytes and mode; the status line
 * says so and a second look shows the undo spent.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER, NATIVE_PROTOCOL_VERSION } from '../shared/native-protocol';
import { screenshot } from '../test/support/chromium';
import type { HeadlessApp } from '../test/support/headless-app';
import { JsonSocket, type JsonMessage } from '../test/support/json-socket';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';
import { diffReady } from './support/review-page';

const BEFORE = '#!/bin/sh\necho one\necho two\necho three\necho four\n';
const AFTER = BEFORE.replace('echo one', 'echo ONE');

const session = appPageSession();

/** A script on DiffTray's own protocol, as `difftray review` is. */
async function nativeScript(a: HeadlessApp) {
  const { native } = a.runtime;
  const open = await JsonSocket.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
  session.afterTest(() => open.close());
  let next = 1;
  const request = async (command: string, payload: unknown): Promise<JsonMessage> => {
    const message_id = `m${next++}`;
    open.send({ protocol_version: NATIVE_PROTOCOL_VERSION, message_id, type: 'request', command, payload });
    return open.waitFor(
      (m) => m.message_id === message_id && (m.type === 'response' || m.type === 'error_response'),
    );
  };
  expect((await request('hello', { client_name: 'release-script', client_version: '1.0' })).type).toBe(
    'response',
  );
  return {
    request,
    push: (command: string) => open.waitFor((m) => m.type === 'push' && m.command === command),
  };
}

describe('Undo changes on disk', () => {
  it('a change set accepted in the UI is undone from History: the file is back, bytes and mode', async () => {
    const { app, page } = await session.start();
    const file = path.join(app.workspace, 'deploy.sh');
    writeFileSync(file, BEFORE);
    chmodSync(file, 0o755);

    const script = await nativeScript(app);
    const proposed = await script.request('propose_change_set', {
      title: 'Louder deploy',
      files: [{ path: 'deploy.sh', after: AFTER }],
    });
    expect(proposed.type).toBe('response');
    await diffReady(page, 'Louder deploy');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect(((await script.push('change_set_result')).payload as { status: string }).status).toBe('accepted');
    expect(readFileSync(file, 'utf8')).toBe(AFTER);

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByTestId('history');
    await history.getByRole('button', { name: 'Undo changes on disk of Louder deploy' }).click();
    const confirm = history.getByRole('group', { name: 'Undo changes on disk of Louder deploy' });
    await confirm.getByText('deploy.sh', { exact: true }).waitFor();
    expect(await confirm.textContent()).toContain('Put back this file as it was before DiffTray wrote it?');
    await screenshot(page, 'history-undo');

    await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByRole('status').getByText('Put back deploy.sh').waitFor();
    await until(
      () => (readFileSync(file, 'utf8') === BEFORE ? true : undefined),
      'the old text back on disk',
    );
    expect(statSync(file).mode & 0o777).toBe(0o755);
    await history.getByText('Changes on disk undone').waitFor();
    expect(await history.getByRole('button', { name: /Undo changes on disk/ }).count()).toBe(0);
  });
  it('a file edited since is left alone, and the undo comes up as a merge review in the queue', async () => {
    const { app, page } = await session.start();
    const file = path.join(app.workspace, 'deploy.sh');
    writeFileSync(file, BEFORE);
    const script = await nativeScript(app);
    await script.request('propose_change_set', {
      title: 'Louder deploy',
      files: [{ path: 'deploy.sh', after: AFTER }],
    });
    await diffReady(page, 'Louder deploy');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await script.push('change_set_result');
    // Edited by hand after DiffTray wrote it, lines away from DiffTray's change.
    const edited = AFTER.replace('echo four', 'echo four, by hand');
    writeFileSync(file, edited);

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByTestId('history');
    await history.getByRole('button', { name: 'Undo changes on disk of Louder deploy' }).click();
    await history.getByRole('button', { name: 'Undo', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/Changed on disk since, left as they are: deploy\.sh; the undo waits as a merge review/)
      .waitFor();
    expect(readFileSync(file, 'utf8')).toBe(edited);

    // The merge: DiffTray's change taken back, the edit kept; accepted like any review.
    await page.getByRole('tab', { name: 'Queue' }).click();
    await diffReady(page, 'Undo of "Louder deploy", onto changes made since');
    // The queue names who put it up; Connections lists agents only, not DiffTray itself.
    await page
      .getByRole('navigation', { name: 'Review queue' })
      .getByRole('heading', { name: /^DiffTray/ })
      .waitFor();
    await page.getByRole('tab', { name: 'Connections' }).click();
    const connections = page.getByTestId('connections');
    await connections.getByRole('heading', { name: /^Connected/ }).waitFor();
    expect(await connections.locator('.dt-client-name', { hasText: /^DiffTray/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Disconnect DiffTray/ }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Queue' }).click();
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const merged = BEFORE.replace('echo four', 'echo four, by hand');
    await until(() => (readFileSync(file, 'utf8') === merged ? true : undefined), 'the merge written');
  });
});
