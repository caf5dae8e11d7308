/**
 * The Claude Code endpoint end to end below the UI: the official MCP SDK client talks to the real
 * bridge over loopback, and the test decides through the app API as the renderer would.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_TOOL_NAMES } from '../../src-main/bridge/claude-ide/tools';
import { connectClaudeClient, texts } from '../support/claude-client';
import { useClaudeSession } from '../support/claude-session';
import { decideHunksAndSubmit } from '../support/decisions';
import { NUMBERS } from '../support/fixtures';
import { waitForReview, waitForSnapshot } from '../support/wait';

const { base: BASE, proposed: PROPOSED, composed: COMPOSED } = NUMBERS;

const session = useClaudeSession('notes.txt', BASE);

function openDiff(tabName = 'notes.txt (edit)', contents = PROPOSED, filePath = session.file) {
  return session.claude.openDiff(filePath, contents, tabName);
}

const api = () => session.t.runtime.handler;

describe('Claude Code endpoint', () => {
  it('lists all twelve IDE tools', async () => {
    const { claude } = session;
    const { tools } = await claude.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...CLAUDE_TOOL_NAMES].sort());
    expect(claude.client.getServerVersion()?.name).toBe('DiffTray');
  });

  it('records the client: name, version and the pid from ide_connected', async () => {
    const { t } = session;
    const client = await waitForSnapshot(t.runtime.core, (s) => s.clients.find((c) => c.pid === process.pid));
    expect(client).toMatchObject({
      name: 'Claude Code',
      protocol: 'claude-ide',
      version: '2.1.0',
      connected: true,
    });
  });

  it('openDiff blocks until the person decides, then returns FILE_SAVED with the composed text', async () => {
    const { t, claude, file } = session;
    const answer = openDiff();
    const review = await waitForReview(t.runtime.core);
    expect(review.title).toBe('notes.txt');
    expect(review.files[0]?.hunks).toHaveLength(3);

    await decideHunksAndSubmit(api(), review.id, { accepted: [0, 2], rejected: [1] });

    expect(texts(await answer)).toEqual(['FILE_SAVED', COMPOSED]);
    // The CLI writes the file for this protocol; DiffTray must not.
    expect(readFileSync(file, 'utf8')).toBe(BASE);
    expect(texts(await claude.callTool('close_tab', { tab_name: 'notes.txt (edit)' }))).toEqual([
      'TAB_CLOSED',
    ]);
  });

  it('a reject returns DIFF_REJECTED and the tab name, and keeps the reason in history', async () => {
    const { t } = session;
    const answer = openDiff('tab-1');
    const review = await waitForReview(t.runtime.core);
    await api()('reject', { reviewId: review.id, reason: 'use a constant instead' });
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'tab-1']);
    const ended = t.runtime.core.queue.summary(review.id);
    expect(ended).toMatchObject({ state: 'rejected', reason: 'use a constant instead' });
  });

  it('rejecting every hunk and submitting counts as a rejection', async () => {
    const { t } = session;
    const answer = openDiff('tab-2');
    const review = await waitForReview(t.runtime.core);
    await api()('decideAll', { reviewId: review.id, decision: 'rejected' });
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'tab-2']);
  });

  it('a second openDiff with the same tab name supersedes the pending one', async () => {
    const { t } = session;
    const first = openDiff('same-tab');
    const firstReview = await waitForReview(t.runtime.core);
    const second = openDiff('same-tab', BASE.replace('two', 'TWO'));
    expect(texts(await first)).toEqual(['DIFF_REJECTED', 'same-tab']);
    const secondReview = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    expect(secondReview.id).not.toBe(firstReview.id);
    expect(t.runtime.core.queue.summary(firstReview.id).state).toBe('superseded');
    await api()('submit', { reviewId: secondReview.id });
    expect(texts(await second)).toEqual(['FILE_SAVED', BASE.replace('two', 'TWO')]);
  });

  it('a new file is proposed against empty text', async () => {
    const { t } = session;
    const created = path.join(t.workspace, 'src', 'new.ts');
    const answer = openDiff('new.ts', 'export const x = 1;\n', created);
    const review = await waitForReview(t.runtime.core);
    expect(review.files[0]?.isNewFile).toBe(true);
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['FILE_SAVED', 'export const x = 1;\n']);
  });

  it('closeAllDiffTabs ends this client’s pending reviews and counts them', async () => {
    const { t, claude } = session;
    const answers = [openDiff('a'), openDiff('b')];
    await waitForSnapshot(t.runtime.core, (s) => (s.reviews.length === 2 ? true : undefined));
    expect(texts(await claude.callTool('closeAllDiffTabs', {}))).toEqual(['CLOSED_2_DIFF_TABS']);
    for (const answer of answers) expect(texts(await answer)[0]).toBe('DIFF_REJECTED');
  });

  it('a client vanishing mid-review leaves its review visible, marked cancelled', async () => {
    const { t, claude } = session;
    void openDiff('vanishing').catch(() => {});
    const review = await waitForReview(t.runtime.core);
    claude.socket.terminate();
    const ended = await waitForReview(t.runtime.core, (r) => r.id === review.id && r.state === 'cancelled');
    expect(ended.reason).toBe('client disconnected');
    expect(ended.client.connected).toBe(false);
    expect(t.runtime.core.snapshot().clients).toEqual([]);
  });

  it('refuses paths outside the workspace and files over the size limit', async () => {
    const { t } = session;
    const outside = path.join(path.dirname(t.workspace), 'outside.txt');
    const refused = await openDiff('x', 'evil', outside);
    expect(refused.isError).toBe(true);
    expect(texts(refused)[0]).toMatch(/outside the workspace/);

    const huge = path.join(t.workspace, 'huge.log');
    writeFileSync(huge, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    const hugeResult = await openDiff('huge', 'small', huge);
    expect(hugeResult.isError).toBe(true);
    expect(texts(hugeResult)[0]).toMatch(/larger than the 10 MB limit/);
    expect(t.runtime.core.snapshot().reviews).toEqual([]);
  });

  it('shows a binary file as binary, decided as a whole', async () => {
    const { t } = session;
    const binary = path.join(t.workspace, 'image.bin');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x00, 0x01]));
    const answer = openDiff('bin', 'now text', binary);
    const review = await waitForReview(t.runtime.core);
    expect(review.files[0]).toMatchObject({
      binary: true,
      binarySize: 4,
      hunks: [],
      fileDecision: 'pending',
    });
    await api()('decideFile', { reviewId: review.id, fileIndex: 0, decision: 'rejected' });
    await api()('submit', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'bin']);
  });

  it('answers the editor-state tools as an IDE with no open editor does', async () => {
    const { t, claude, file } = session;
    const folders = JSON.parse(texts(await claude.callTool('getWorkspaceFolders', {}))[0]!);
    expect(folders).toEqual({
      success: true,
      folders: [{ name: 'workspace', uri: `file://${t.workspace}`, path: t.workspace }],
      rootPath: t.workspace,
    });
    expect(JSON.parse(texts(await claude.callTool('getDiagnostics', {}))[0]!)).toEqual([]);
    const uri = `file://${file}`;
    expect(JSON.parse(texts(await claude.callTool('getDiagnostics', { uri }))[0]!)).toEqual([
      { uri, diagnostics: [] },
    ]);
    expect(JSON.parse(texts(await claude.callTool('getCurrentSelection', {}))[0]!)).toEqual({
      success: false,
      message: 'No active editor found',
    });
    expect(JSON.parse(texts(await claude.callTool('getLatestSelection', {}))[0]!).success).toBe(false);
    expect(JSON.parse(texts(await claude.callTool('getOpenEditors', {}))[0]!)).toEqual({ tabs: [] });
    expect(JSON.parse(texts(await claude.callTool('checkDocumentDirty', { filePath: file }))[0]!)).toEqual({
      success: false,
      message: `Document not open: ${file}`,
    });
    expect(JSON.parse(texts(await claude.callTool('saveDocument', { filePath: file }))[0]!).success).toBe(
      false,
    );
    expect(texts(await claude.callTool('openFile', { filePath: file }))).toEqual([`Opened file: ${file}`]);
    expect((await claude.callTool('openFile', { filePath: path.join(t.workspace, 'nope') })).isError).toBe(
      true,
    );
    expect((await claude.callTool('executeCode', { code: 'print(1)' })).isError).toBe(true);
  });

  it('invalid tool arguments get an error result, and the connection lives on', async () => {
    const { claude, file } = session;
    const result = await claude.callTool('openDiff', { old_file_path: file });
    expect(result.isError).toBe(true);
    const { tools } = await claude.client.listTools();
    expect(tools.length).toBe(12);
  });
});

describe('lock files', () => {
  it('are written for Claude Code and NEXUS3, 0600 in 0700 folders, with the port and token', async () => {
    const { t } = session;
    const port = t.runtime.bridge.port;
    for (const [dir, protocol] of [
      [t.claudeLockDir, 'claude-ide'],
      [t.nexusLockDir, 'nexus3-ide'],
    ] as const) {
      const lock = path.join(dir, `${port}.lock`);
      expect(statSync(lock).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual({
        pid: process.pid,
        workspaceFolders: [t.workspace],
        ideName: 'DiffTray',
        transport: 'ws',
        authToken: t.runtime.bridge.tokenFor(protocol),
        runningInWindows: false,
      });
    }
    expect(t.runtime.bridge.tokenFor('claude-ide')).not.toBe(t.runtime.bridge.tokenFor('nexus3-ide'));
  });

  it('NEXUS3 connects with its own header and token', async () => {
    const { t } = session;
    const nexus = await connectClaudeClient(
      t.runtime.bridge.port,
      t.runtime.bridge.tokenFor('nexus3-ide'),
      'x-nexus3-ide-authorization',
    );
    const client = await waitForSnapshot(t.runtime.core, (s) =>
      s.clients.find((c) => c.protocol === 'nexus3-ide'),
    );
    expect(client.name).toBe('NEXUS3');
    await nexus.close();
  });
});
