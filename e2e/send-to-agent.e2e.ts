/**
 * "Send to agent" as a person uses it in Chromium against the headless app: lines selected in either
 * side of the diff (mouse or keyboard) reach the review's client as context, pending or ended, and the
 * status line says what went. The client is one whose connection the test sees: a native-protocol
 * client connected on the app's own core, with a context sink that records what arrives (as its
 * adapter's sink would take it to the wire). A client that cannot take lines shows no button and says why.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ClientProtocol } from '../shared/app-api';
import { readDiskSnapshot } from '../src-main/core/disk/disk-snapshot';
import type { SelectionContext } from '../src-main/core/review/selection-context';
import { screenshot } from '../test/support/chromium';
import { appPageSession } from './support/app-page-session';
import { diffReady } from './support/review-page';

const BASE = 'one\ntwo\nthree\nfour\nfive\n';
const PROPOSED = 'one\nTWO changed\nTHREE changed\nfour\nfive\n';

const session = appPageSession();

/**
 * A fresh app with the page open, and a review of a.txt from a client of `protocol` named `name`.
 * A native client gets a sink recording each selection sent to it.
 */
async function reviewFrom(protocol: ClientProtocol, name: string) {
  const app = await session.startApp();
  const { core } = app.runtime;
  const file = path.join(app.workspace, 'a.txt');
  writeFileSync(file, BASE);
  const client = core.clients.connect(name, protocol);
  const sent: SelectionContext[] = [];
  if (protocol === 'native') core.clients.setContextSink(client.id, (selection) => void sent.push(selection));
  const page = await session.openPage();
  const { id } = core.queue.add({
    client,
    title: 'a.txt',
    files: [{ path: file, base: await readDiskSnapshot(file), proposedText: PROPOSED }],
  });
  await diffReady(page, 'a.txt');
  return { page, core, file, id, sent };
}

type Side = 'original' | 'modified';

/** Clicks right of the text of editor line `line` of one side (so the caret goes to the line's end). */
async function clickLine(page: Page, side: Side, line: number, shift = false): Promise<void> {
  const editor = page.getByTestId('diff-editor').locator(`.editor.${side}`);
  const number = editor.locator('.line-numbers').filter({ hasText: new RegExp(`^${line}$`) });
  const numberBox = await number.boundingBox();
  const editorBox = await editor.boundingBox();
  if (!numberBox || !editorBox) throw new Error(`line ${line} of the ${side} editor is not on screen`);
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.click(editorBox.x + editorBox.width * 0.6, numberBox.y + numberBox.height / 2);
  if (shift) await page.keyboard.up('Shift');
}

const sendButton = (page: Page) => page.getByRole('button', { name: 'Send to agent', exact: true });
const status = (page: Page, text: string) => page.getByRole('status').getByText(text, { exact: true });

describe('Send to agent', () => {
  it('sends lines selected in the proposal (mouse) and in the base (keyboard), pending and ended, and says so', async () => {
    const { page, core, file, id, sent } = await reviewFrom('native', 'Test agent');
    const lines = page.getByTestId('send-lines');
    // Nothing selected: no button waits disabled; it comes with a selection.
    expect(await sendButton(page).count()).toBe(0);
    expect(await lines.count()).toBe(0);

    // Lines 2–3 of the proposed side: click line 2, Shift+click line 3.
    await clickLine(page, 'modified', 2);
    await clickLine(page, 'modified', 3, true);
    await lines.filter({ hasText: 'Lines 2–3 of the proposal' }).waitFor();
    await sendButton(page).click();
    await status(page, 'Sent lines 2–3 of a.txt to Test agent').waitFor();
    expect(sent).toEqual([
      {
        path: file,
        side: 'proposed',
        text: 'TWO changed\nTHREE changed',
        startLine: 1,
        endLine: 2,
        endCharacter: 'THREE changed'.length,
      },
    ]);
    await screenshot(page, 'send-to-agent-sent');

    // A caret alone sends its line; the key does what the button does. Left editor: the base text.
    await clickLine(page, 'original', 4);
    await lines.filter({ hasText: 'Line 4 of the file as it was' }).waitFor();
    await page.keyboard.press('ControlOrMeta+Shift+S');
    await status(page, 'Sent line 4 of the original a.txt to Test agent').waitFor();
    expect(sent[1]).toEqual({
      path: file,
      side: 'base',
      text: 'four',
      startLine: 3,
      endLine: 3,
      endCharacter: 4,
    });

    // Ended (rejected, looked at again from History), the review can still point its agent at lines.
    core.queue.reject(id);
    await page.getByRole('tab', { name: 'History' }).click();
    await page
      .getByRole('navigation', { name: 'Review history' })
      .getByRole('button', { name: /a\.txt/ })
      .click();
    await page.getByTestId('ended-banner').waitFor();
    await diffReady(page, 'a.txt');
    await clickLine(page, 'modified', 1);
    await sendButton(page).click();
    await status(page, 'Sent line 1 of a.txt to Test agent').waitFor();
    expect(sent[2]).toMatchObject({ side: 'proposed', text: 'one', startLine: 0, endLine: 0 });
  });

  it('says why the lines did not go when the connection refuses them', async () => {
    const { page, core, id } = await reviewFrom('native', 'Test agent');
    const client = core.queue.find(id)!.client;
    core.clients.setContextSink(client.id, () => {
      throw new Error('No notification stream is open');
    });
    await clickLine(page, 'modified', 2);
    await sendButton(page).click();
    await status(page, 'Could not send the lines to Test agent: No notification stream is open').waitFor();
  });

  for (const [protocol, name, why] of [
    ['claude-hooks', 'Claude Code', "Claude Code's hooks can't receive lines"],
    ['watch', 'Changes on disk', "Watch mode can't receive lines"],
  ] as const) {
    it(`a review from ${protocol} shows no button and says why, also when the key is pressed`, async () => {
      const { page } = await reviewFrom(protocol, name);
      // Said with the actions on selected lines, where the button would be.
      await clickLine(page, 'modified', 2);
      const unavailable = page.getByTestId('send-unavailable');
      await unavailable.waitFor();
      expect(await unavailable.textContent()).toContain(why);
      expect(await sendButton(page).count()).toBe(0);
      await screenshot(page, `send-to-agent-${protocol}`);
      await page.keyboard.press('ControlOrMeta+Shift+S');
      await page.getByRole('status').filter({ hasText: why }).waitFor();
    });
  }
});
