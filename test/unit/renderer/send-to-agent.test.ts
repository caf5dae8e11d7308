/**
 * "Send to agent" in the renderer: which lines of which side a selection in the diff stands for, what
 * is said about them, the key, and the action driven through the real app API handler (in-process
 * carrier) to a context sink registered on core, as a protocol adapter registers it.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppApi, type ClientProtocol } from '../../../shared/app-api';
import { DEFAULT_KEY_MAP } from '../../../shared/keymap';
import { AppCore } from '../../../src-main/core/app-core';
import { readDiskSnapshot } from '../../../src-main/core/disk/disk-snapshot';
import type { SelectionContext } from '../../../src-main/core/review/selection-context';
import { createActions, type Actions } from '../../../src-renderer/state/actions';
import { commandForKey } from '../../../src-renderer/keys/keyboard';
import { lineCommandForKey } from '../../../src-renderer/keys/line-keys';
import {
  selectedLineRanges,
  type DiffSide,
  type SelectionRange,
} from '../../../src-renderer/review/line-selection';
import { useReviewUi } from '../../../src-renderer/review/review-ui';
import {
  isSendKey,
  linesToSend,
  NOTHING_TO_SEND_REASON,
  sendSummary,
  sendUnavailableText,
  sentAnnouncement,
} from '../../../src-renderer/review/send-to-agent';
import { useAppStore } from '../../../src-renderer/state/store';
import { inProcessCarrier } from '../../support/in-process-carrier';
import { makeTempDir } from '../../support/temp';

/** A Monaco selection (1-based lines and columns). */
const sel = (startLineNumber: number, startColumn: number, endLineNumber: number, endColumn: number) =>
  ({ startLineNumber, startColumn, endLineNumber, endColumn }) satisfies SelectionRange;

const fromMonaco = (side: DiffSide, ...selections: SelectionRange[]) =>
  linesToSend({ side, ranges: selectedLineRanges(selections) });

describe('the lines a selection in the diff sends', () => {
  it('are 0-based lines of the side selected in: right editor = proposal, left = base', () => {
    // Lines 2–3 of the right editor, dragged from the start of 2 to the end of 3.
    expect(fromMonaco('modified', sel(2, 1, 3, 6))).toEqual({
      ok: true,
      side: 'proposed',
      startLine: 1,
      endLine: 2,
    });
    expect(fromMonaco('original', sel(5, 3, 7, 2))).toEqual({
      ok: true,
      side: 'base',
      startLine: 4,
      endLine: 6,
    });
  });

  it('leave out a last line the selection only reaches the start of (whole-line drags, Shift+Down)', () => {
    expect(fromMonaco('modified', sel(2, 1, 4, 1))).toMatchObject({ startLine: 1, endLine: 2 });
  });

  it('are the caret’s line for an empty selection, and the one line of a selection inside it', () => {
    expect(fromMonaco('modified', sel(3, 4, 3, 4))).toMatchObject({ startLine: 2, endLine: 2 });
    expect(fromMonaco('original', sel(1, 2, 1, 5))).toMatchObject({ side: 'base', startLine: 0, endLine: 0 });
  });

  it('are the same for a selection made upwards', () => {
    expect(fromMonaco('modified', sel(3, 6, 2, 1))).toMatchObject({ startLine: 1, endLine: 2 });
  });

  it('are one block: overlapping cursors merge, separate blocks are refused, nothing selected says what to do', () => {
    expect(fromMonaco('modified', sel(2, 1, 3, 2), sel(3, 1, 4, 3))).toMatchObject({
      startLine: 1,
      endLine: 3,
    });
    expect(fromMonaco('modified', sel(1, 1, 1, 1), sel(5, 1, 5, 1))).toEqual({
      ok: false,
      reason: 'Select one block of lines to send it',
    });
    expect(linesToSend(null)).toEqual({ ok: false, reason: NOTHING_TO_SEND_REASON });
    expect(linesToSend({ side: 'modified', ranges: [] })).toEqual({
      ok: false,
      reason: NOTHING_TO_SEND_REASON,
    });
  });
});

describe('what is said about the lines', () => {
  const proposed = { side: 'proposed', startLine: 2, endLine: 6 } as const;
  const oneBase = { side: 'base', startLine: 0, endLine: 0 } as const;

  it('numbers lines as the editor does, from 1, and names the text they are of', () => {
    expect(sendSummary(proposed)).toBe('Lines 3–7 of the proposal');
    expect(sendSummary(oneBase)).toBe('Line 1 of the file as it was');
    expect(sentAnnouncement(proposed, 'a.txt', 'Claude Code')).toBe('Sent lines 3–7 of a.txt to Claude Code');
    expect(sentAnnouncement(oneBase, 'a.txt', 'Gemini CLI')).toBe(
      'Sent line 1 of the original a.txt to Gemini CLI',
    );
  });

  it('says why not where the client cannot take lines, by its protocol, or when it is gone', () => {
    const all: ClientProtocol[] = [
      'claude-ide',
      'claude-hooks',
      'nexus3-ide',
      'gemini-ide',
      'qwen-ide',
      'copilot-cli',
      'clio',
      'native',
      'watch',
    ];
    const texts = Object.fromEntries(
      all.map((protocol) => [
        protocol,
        sendUnavailableText({ client: { protocol, name: 'Agent', connected: true } }),
      ]),
    );
    expect(texts).toEqual({
      'claude-ide': null,
      'claude-hooks': "Claude Code's hooks can't receive lines: Send to agent is not available.",
      'nexus3-ide': null,
      'gemini-ide': null,
      'qwen-ide': null,
      'copilot-cli': null,
      clio: "Clio's protocol can't receive lines: Send to agent is not available.",
      native: null,
      watch: "Watch mode can't receive lines: Send to agent is not available.",
    });
    expect(sendUnavailableText({ client: { protocol: 'native', name: 'Script', connected: false } })).toBe(
      "Script is disconnected: lines can't be sent to it.",
    );
    expect(
      sendUnavailableText({
        client: { protocol: 'native', name: 'Script', connected: true },
        textsDropped: true,
      }),
    ).toBe("This review's texts are no longer kept: lines can't be sent from it.");
  });
});

describe('the send key', () => {
  const key = (k: string, code: string, mods: Partial<KeyboardEvent> = {}) => ({
    key: k,
    code,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });

  it('is Ctrl/Cmd+Shift+S, by the physical key, and no other key of the review', () => {
    const send = key('S', 'KeyS', { ctrlKey: true, shiftKey: true });
    expect(isSendKey(send, DEFAULT_KEY_MAP)).toBe(true);
    expect(isSendKey({ ...send, ctrlKey: false, metaKey: true }, DEFAULT_KEY_MAP)).toBe(true);
    expect(commandForKey(send, DEFAULT_KEY_MAP)).toBeNull();
    expect(lineCommandForKey(send, DEFAULT_KEY_MAP)).toBeNull();
    expect(isSendKey(key('s', 'KeyS'), DEFAULT_KEY_MAP)).toBe(false);
    expect(isSendKey(key('s', 'KeyS', { ctrlKey: true }), DEFAULT_KEY_MAP)).toBe(false);
    expect(isSendKey({ ...send, altKey: true }, DEFAULT_KEY_MAP)).toBe(false);
    expect(isSendKey(key('Y', 'KeyY', { ctrlKey: true, shiftKey: true }), DEFAULT_KEY_MAP)).toBe(false);
  });
});

describe('sending through the app API', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let core: AppCore;
  let actions: Actions;

  beforeEach(() => {
    temp = makeTempDir('unit-send');
    core = new AppCore([realpathSync(temp.dir)]);
    actions = createActions(createAppApi(inProcessCarrier(core)));
    useAppStore.setState({ snapshot: null, selectedReviewId: null, keyPause: null, announcement: null });
    useReviewUi.setState({ lineSelection: null, editsPending: false });
  });
  afterEach(() => temp.cleanup());

  /** A review of a.txt from a client of `protocol`; what its sink receives (when it has one). */
  async function reviewFrom(protocol: ClientProtocol, sink?: (selection: SelectionContext) => void) {
    const file = path.join(realpathSync(temp.dir), 'a.txt');
    writeFileSync(file, 'one\ntwo\nthree\n');
    const owner = core.clients.connect('Test agent', protocol);
    const sent: SelectionContext[] = [];
    if (sink !== undefined || protocol === 'native') {
      core.clients.setContextSink(owner.id, sink ?? ((selection) => void sent.push(selection)));
    }
    const { id } = core.queue.add({
      client: owner,
      title: 'a.txt',
      files: [{ path: file, base: await readDiskSnapshot(file), proposedText: 'one\nTWO\nTHREE\nfour\n' }],
    });
    return { id, file, owner, sent };
  }

  function show(id: string): void {
    useAppStore.getState().applySnapshot(core.snapshot());
    useAppStore.getState().selectReview(id);
    const { files } = core.queue.summary(id);
    useAppStore.getState().setDetail({ reviewId: id, revision: 1, files: files.map((file) => file.hunks) });
  }

  const select = (reviewId: string, side: DiffSide, first: number, last: number) =>
    useReviewUi
      .getState()
      .setLineSelection({ reviewId, fileIndex: 0, selection: { side, ranges: [[first, last]] } });
  const said = () => useAppStore.getState().announcement?.text;

  it('sends the selected lines of the proposal to the client and says so', async () => {
    const { id, file, sent } = await reviewFrom('native');
    show(id);
    select(id, 'modified', 2, 3);
    await actions.sendSelectedLines();
    expect(sent).toEqual([
      { path: file, side: 'proposed', text: 'TWO\nTHREE', startLine: 1, endLine: 2, endCharacter: 5 },
    ]);
    expect(said()).toBe('Sent lines 2–3 of a.txt to Test agent');
  });

  it('sends base lines from an ended review too', async () => {
    const { id, file, sent } = await reviewFrom('native');
    core.queue.reject(id);
    show(id);
    select(id, 'original', 1, 1);
    await actions.sendSelectedLines();
    expect(sent).toEqual([
      { path: file, side: 'base', text: 'one', startLine: 0, endLine: 0, endCharacter: 3 },
    ]);
    expect(said()).toBe('Sent line 1 of the original a.txt to Test agent');
  });

  it('says why when the connection refuses, when the client cannot take lines, and with nothing selected', async () => {
    const refusing = await reviewFrom('native', () => {
      throw new Error('No notification stream is open');
    });
    show(refusing.id);
    await actions.sendSelectedLines();
    expect(said()).toBe(NOTHING_TO_SEND_REASON);
    select(refusing.id, 'modified', 1, 1);
    await actions.sendSelectedLines();
    expect(said()).toBe('Could not send the lines to Test agent: No notification stream is open');

    const hooks = await reviewFrom('claude-hooks');
    show(hooks.id);
    select(hooks.id, 'modified', 1, 1);
    await actions.sendSelectedLines();
    expect(said()).toBe("Claude Code's hooks can't receive lines: Send to agent is not available.");
  });

  it('waits for an edit of the proposal to be saved before sending its lines', async () => {
    const { id, sent } = await reviewFrom('native');
    show(id);
    select(id, 'modified', 1, 1);
    useReviewUi.setState({ editsPending: true });
    await actions.sendSelectedLines();
    expect(sent).toEqual([]);
    expect(said()).toBe('Your edit is still being saved: send lines once it is');
    // The base text does not change with edits.
    select(id, 'original', 1, 1);
    await actions.sendSelectedLines();
    expect(sent).toHaveLength(1);
  });
});
