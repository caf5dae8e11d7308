/**
 * The note to the agent, approval cards and paused clients in the renderer: the pure views, the draft
 * notes, and the actions driven through the real app API handler over an in-process carrier (as the
 * headless and Electron carriers deliver it), checking what core received.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAppApi,
  type AppApi,
  type ClientInfo,
  type ClientProtocol,
  type ReviewSummary,
} from '../../../shared/app-api';
import { AppCore } from '../../../src-main/core/app-core';
import { readDiskSnapshot } from '../../../src-main/core/disk/disk-snapshot';
import { createActions, type Actions } from '../../../src-renderer/state/actions';
import {
  noteToSend,
  noteUnheardText,
  offersHooksSetup,
  sentNoteText,
  useNoteDrafts,
} from '../../../src-renderer/review/agent-note';
import {
  approvalArgsText,
  approvalEndedText,
  approvalLabel,
  approvalStateLabel,
} from '../../../src-renderer/review/approval-model';
import {
  canPause,
  isClientPaused,
  pauseButtonLabel,
  pauseExplanation,
  pausedWithoutConnection,
} from '../../../src-renderer/views/client-pause';
import { useAppStore } from '../../../src-renderer/state/store';
import { makeTempDir } from '../../support/temp';
import { client, review } from './fixtures-app-shell';
import { inProcessCarrier } from '../../support/in-process-carrier';

const ALL_PROTOCOLS: ClientProtocol[] = [
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

describe('where a note can reach the agent', () => {
  it("says so in a short line for protocols that can't carry one, and offers hooks to Claude Code and NEXUS3 only", () => {
    const lines = Object.fromEntries(ALL_PROTOCOLS.map((p) => [p, noteUnheardText(p)]));
    expect(lines).toEqual({
      'claude-ide': "Claude Code's IDE protocol can't carry a note to the agent.",
      'claude-hooks': null,
      'nexus3-ide': "NEXUS3's IDE protocol can't carry a note to the agent.",
      'gemini-ide': "Gemini CLI's IDE protocol can't carry a note to the agent.",
      'qwen-ide': "Qwen Code's IDE protocol can't carry a note to the agent.",
      'copilot-cli': "Copilot CLI's /ide protocol can't carry a note to the agent.",
      clio: null,
      native: null,
      watch: "Watch mode can't carry a note to the agent.",
    });
    expect(ALL_PROTOCOLS.filter(offersHooksSetup)).toEqual(['claude-ide', 'nexus3-ide']);
  });

  it('History says the note was sent, or that it was kept without reaching the client', () => {
    const native = client('n', { name: 'deploy', protocol: 'native' });
    const ide = client('c');
    expect(sentNoteText(review('a', 1, native, 'accepted', { agentNote: 'tests next' }))).toBe(
      'Note to the agent: tests next',
    );
    expect(sentNoteText(review('a', 1, ide, 'accepted', { agentNote: 'tests next' }))).toBe(
      "Note (kept here, not sent: Claude Code can't receive it): tests next",
    );
    expect(sentNoteText(review('a', 1, native, 'accepted'))).toBeNull();
    expect(sentNoteText(review('a', 1, native, 'accepted', { agentNote: '  ' }))).toBeNull();
  });
});

describe('draft notes', () => {
  beforeEach(() => useNoteDrafts.setState({ drafts: {} }));

  it('are kept per review, sent trimmed, and dropped for reviews no longer waiting', () => {
    const drafts = useNoteDrafts.getState();
    drafts.setDraft('r1', '  keep the tests  ');
    drafts.setDraft('r2', 'too broad');
    drafts.setDraft('r3', '   ');
    expect(noteToSend('r1')).toBe('keep the tests');
    expect(noteToSend('r3')).toBeUndefined();
    expect(noteToSend('nobody')).toBeUndefined();
    useNoteDrafts.getState().keepOnly(new Set(['r2', 'r3']));
    expect(useNoteDrafts.getState().drafts).toEqual({ r2: 'too broad', r3: '   ' });
    useNoteDrafts.getState().clearDraft('r2');
    expect(useNoteDrafts.getState().drafts).toEqual({ r3: '   ' });
  });
});

describe('approval cards', () => {
  it('are named by what they ask, in the words of their buttons once ended', () => {
    expect(approvalLabel({ kind: 'command', command: 'npm test' })).toBe('Run command: npm test');
    expect(approvalLabel({ kind: 'command' })).toBe('Run a command');
    expect(approvalLabel({ kind: 'tool', toolName: 'WebFetch' })).toBe('Use tool: WebFetch');
    expect(approvalLabel({ kind: 'write_file' })).toBe('Write a file');
    expect(approvalLabel({ kind: 'delete_file', toolName: 'rm' })).toBe('Delete a file (rm)');
    const owner = client('n', { protocol: 'native' });
    const card = (state: ReviewSummary['state'], reason?: string) =>
      review('a', 1, owner, state, {
        files: [],
        approval: { kind: 'command', command: 'x' },
        ...(reason !== undefined && { reason }),
      });
    expect([approvalEndedText(card('accepted')), approvalStateLabel(card('accepted'))]).toEqual([
      'Allowed.',
      'Allowed',
    ]);
    expect([approvalEndedText(card('rejected', 'not now')), approvalStateLabel(card('rejected'))]).toEqual([
      'Denied: not now',
      'Denied',
    ]);
    expect(approvalEndedText(card('cancelled', 'client disconnected'))).toBe(
      'Cancelled: client disconnected — nothing was sent.',
    );
  });

  it('show arguments as indented JSON when they parse, else as given', () => {
    expect(approvalArgsText('{"url":"https://x","n":[1,2]}')).toBe(
      '{\n  "url": "https://x",\n  "n": [\n    1,\n    2\n  ]\n}',
    );
    expect(approvalArgsText('not json {')).toBe('not json {');
    expect(approvalArgsText(' ')).toBeUndefined();
    expect(approvalArgsText(undefined)).toBeUndefined();
  });
});

describe('pausing a client', () => {
  it('is offered for Claude Code hooks and native clients, named after the client, explained in one line', () => {
    expect(ALL_PROTOCOLS.filter(canPause)).toEqual(['claude-hooks', 'native', 'watch']);
    expect(pauseButtonLabel('Claude Code', false)).toBe('Pause reviews from Claude Code');
    expect(pauseButtonLabel('Claude Code', true)).toBe('Resume reviews from Claude Code');
    expect(pauseExplanation('claude-hooks')).toBe(
      'Paused: its edits go through without review in DiffTray (Claude Code asks in its terminal).',
    );
  });

  it('lists paused clients apart only while none of their kind is connected', () => {
    const hooks: ClientInfo = client('h1', { protocol: 'claude-hooks' });
    const paused = [
      { key: 'claude-hooks:Claude Code', name: 'Claude Code', protocol: 'claude-hooks' as const },
      { key: 'native:nightly', name: 'nightly', protocol: 'native' as const },
    ];
    expect(isClientPaused(hooks, paused)).toBe(true);
    expect(isClientPaused(client('c'), paused)).toBe(false);
    expect(pausedWithoutConnection(paused, [hooks]).map((p) => p.name)).toEqual(['nightly']);
  });
});

describe('actions send the note', () => {
  let core: AppCore;
  let actions: Actions;
  let api: AppApi;
  let temp: ReturnType<typeof makeTempDir>;

  beforeEach(() => {
    temp = makeTempDir('unit-notes');
    core = new AppCore([realpathSync(temp.dir)]);
    api = createAppApi(inProcessCarrier(core));
    actions = createActions(api);
    useNoteDrafts.setState({ drafts: {} });
    useAppStore.setState({ snapshot: null, selectedReviewId: null, keyPause: null, announcement: null });
  });
  afterEach(() => temp.cleanup());

  /** Shows review `id` as the person would have it on screen. */
  function show(id: string): void {
    useAppStore.getState().applySnapshot(core.snapshot());
    useAppStore.getState().selectReview(id);
    const { files } = core.queue.summary(id);
    useAppStore.getState().setDetail({ reviewId: id, revision: 1, files: files.map((file) => file.hunks) });
  }

  async function fileReview() {
    const file = path.join(realpathSync(temp.dir), 'a.txt');
    writeFileSync(file, 'a\n');
    const owner = core.clients.connect('deploy', 'native');
    return core.queue.add({
      client: owner,
      title: 'a.txt',
      files: [{ path: file, base: await readDiskSnapshot(file), proposedText: 'A\n' }],
    });
  }

  it('Submit sends the trimmed draft, which History keeps, and forgets the draft', async () => {
    const { id, outcome } = await fileReview();
    show(id);
    useNoteDrafts.getState().setDraft(id, '  run the linter next \n');
    await actions.submit();
    expect(await outcome).toMatchObject({ kind: 'accepted', note: 'run the linter next' });
    expect(core.snapshot().reviews[0]?.agentNote).toBe('run the linter next');
    expect(useNoteDrafts.getState().drafts).toEqual({});
  });

  it('a failed submit keeps the draft for the next try', async () => {
    const { id } = await fileReview();
    show(id);
    useNoteDrafts.getState().setDraft(id, 'keep me');
    core.queue.reject(id);
    await actions.submit();
    expect(useNoteDrafts.getState().drafts).toEqual({ [id]: 'keep me' });
    expect(useAppStore.getState().announcement?.text).toMatch(/^Could not submit/);
  });

  it('on an approval card, Submit allows with the note and Reject denies with it as the reason', async () => {
    const owner = core.clients.connect('deploy', 'native');
    const card = () =>
      core.queue.add({
        client: owner,
        title: 'Run command: make',
        files: [],
        approval: { kind: 'command', command: 'make' },
      });
    const allowed = card();
    show(allowed.id);
    useNoteDrafts.getState().setDraft(allowed.id, 'only once');
    await actions.submit();
    expect(await allowed.outcome).toEqual({ kind: 'accepted', files: [], note: 'only once' });
    expect(useAppStore.getState().announcement?.text).toBe('Allowed');

    const denied = card();
    show(denied.id);
    useNoteDrafts.getState().setDraft(denied.id, 'not on a Friday ');
    await actions.reject(noteToSend(denied.id) ?? '');
    expect(await denied.outcome).toEqual({ kind: 'rejected', reason: 'not on a Friday' });
    expect(useNoteDrafts.getState().drafts).toEqual({});
    expect(useAppStore.getState().announcement?.text).toBe('Denied');
  });
});
