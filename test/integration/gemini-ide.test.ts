/**
 * The Gemini CLI endpoint with the real client: `IdeClient` from @google/gemini-cli-core, the code Gemini
 * CLI itself runs, discovers DiffTray through its discovery file, connects over MCP Streamable HTTP and
 * receives each decision the way the CLI does. The test decides through the app API, as the renderer.
 *
 * IdeClient is a per-process singleton (vitest gives each test file its own process): this file runs
 * one ordered sequence of cases against one runtime and one client.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  IDEConnectionStatus,
  IdeClient,
  ideContextStore,
  type DiffUpdateResult,
} from '@google/gemini-cli-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideHunksAndSubmit } from '../support/decisions';
import { NUMBERS } from '../support/fixtures';
import { enterGeminiEnvironment } from '../support/gemini-environment';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview, waitForSnapshot, until } from '../support/wait';

const { base: BASE, proposed: PROPOSED, composed: COMPOSED } = NUMBERS;

let t: TestRuntime;
let ide: IdeClient;
let file: string;
let leaveGeminiEnvironment: () => void = () => {};

const openFiles = () => ideContextStore.get()?.workspaceState?.openFiles?.map((f) => f.path);
const api = () => t.runtime.handler;

beforeAll(async () => {
  t = await startTestRuntime({ mcpStreamGraceMs: 300 });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
  leaveGeminiEnvironment = enterGeminiEnvironment(t);
  ide = await IdeClient.getInstance();
  await ide.connect({ logToConsole: false });
});

afterAll(async () => {
  await ide?.disconnect();
  leaveGeminiEnvironment();
  await t?.close();
});

describe('Gemini CLI IdeClient against DiffTray', () => {
  it('discovers DiffTray through its discovery file and connects with diffing enabled', async () => {
    expect(ide.getConnectionStatus()).toMatchObject({ status: IDEConnectionStatus.Connected });
    // ideInfo from the discovery file is what makes DiffTray a supported "IDE" outside VS Code.
    expect(ide.getCurrentIde()).toEqual({ name: 'difftray', displayName: 'DiffTray' });
    expect(ide.isDiffingEnabled()).toBe(true);
    const client = await waitForSnapshot(t.runtime.core, (s) => s.clients[0]);
    expect(client).toMatchObject({ name: 'Gemini CLI', protocol: 'gemini-ide', connected: true });
  });

  it('openDiff: accepting two of three hunks sends the CLI exactly the composed text', async () => {
    const result = ide.openDiff(file, PROPOSED);
    const review = await waitForReview(t.runtime.core);
    expect(review).toMatchObject({ title: 'notes.txt', client: { name: 'Gemini CLI' } });
    expect(review.files[0]?.hunks).toHaveLength(3);
    // ide/contextUpdate: the file under review is what DiffTray has open.
    await until(() => (openFiles()?.includes(file) ? true : undefined), 'the review in the IDE context');

    await decideHunksAndSubmit(api(), review.id, { accepted: [0, 2], rejected: [1] });

    expect(await result).toEqual<DiffUpdateResult>({ status: 'accepted', content: COMPOSED });
    // The CLI writes the file for this protocol; DiffTray must not.
    expect(readFileSync(file, 'utf8')).toBe(BASE);
    await until(() => (openFiles()?.length === 0 ? true : undefined), 'an empty IDE context');
  });

  it('a reject reaches the CLI as rejected', async () => {
    const result = ide.openDiff(file, PROPOSED);
    const review = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    await api()('reject', { reviewId: review.id, reason: 'keep the numbers lowercase' });
    expect(await result).toEqual<DiffUpdateResult>({ status: 'rejected', content: undefined });
    expect(t.runtime.core.queue.summary(review.id)).toMatchObject({
      state: 'rejected',
      reason: 'keep the numbers lowercase',
    });
  });

  it('answered in the terminal: closeDiff with suppressNotification returns the proposal as edited', async () => {
    const result = ide.openDiff(file, PROPOSED);
    const review = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    const edited = PROPOSED.replace('FIVE', 'Five');
    await api()('editProposal', { reviewId: review.id, fileIndex: 0, proposedText: edited });

    // What Gemini CLI does when its own prompt is answered: closeDiff {suppressNotification: true},
    // then it settles the diff itself with the content closeDiff returned.
    await ide.resolveDiffFromCli(file, 'accepted');

    expect(await result).toEqual<DiffUpdateResult>({ status: 'accepted', content: edited });
    expect(t.runtime.core.queue.summary(review.id)).toMatchObject({
      state: 'cancelled',
      reason: 'closed by the client',
    });
  });

  it('closeDiff on a file with no open review answers no content', async () => {
    expect(await ide.closeDiff(path.join(t.workspace, 'other.txt'))).toBeUndefined();
  });

  it('Send to agent: the lines become the active file of the CLI context, with their text', async () => {
    const result = ide.openDiff(file, PROPOSED);
    const review = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    await api()('sendSelection', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'proposed',
      startLine: 3,
      endLine: 4,
    });

    // What the CLI adds to the next prompt as the active file (getIdeContextParts reads this store).
    const active = await until(
      () => ideContextStore.get()?.workspaceState?.openFiles?.find((f) => f.isActive),
      'an active file in the IDE context',
    );
    expect(active).toMatchObject({
      path: file,
      selectedText: 'four\nFIVE',
      cursor: { line: 5, character: 4 },
    });

    await api()('reject', { reviewId: review.id });
    expect((await result).status).toBe('rejected');
  });

  it('disconnecting ends the session: DiffTray forgets the client', async () => {
    await ide.disconnect();
    expect(ide.getConnectionStatus().status).toBe(IDEConnectionStatus.Disconnected);
    // IdeClient sends no DELETE; its event stream closing, and staying closed, is what ends the session.
    await waitForSnapshot(t.runtime.core, (s) => (s.clients.length === 0 ? true : undefined));
  });
});
