/**
 * "Send to agent" over Copilot CLI's `/ide`, spoken over the Unix socket as the real CLI does (see
 * copilot-cli.test.ts): the person's lines arrive as `selection_changed` on the CLI's GET event stream,
 * in the shape VS Code sends (sailro/CopilotCliIde captures, vscode-0.41 seq 23), 0-based. A CLI with
 * no event stream open is not sent them: the person is told why, and nothing stale arrives later.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  callTool,
  closeCopilotStreams,
  connectCopilot,
  initializeCopilot,
  openCopilotStream,
  readCopilotLock,
  type CopilotSession,
  type EventStream,
} from '../support/copilot-client';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

const BASE = ['one', 'two', 'three', 'four', 'five'].join('\n') + '\n';
const PROPOSED = ['ONE', 'two', 'three', 'four', 'FIVE'].join('\n') + '\n';

let t: TestRuntime;
let file: string;

beforeEach(async () => {
  // Long enough that a session without its event stream is not ended mid-test.
  t = await startTestRuntime({ mcpStreamGraceMs: 60_000 });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
});

afterEach(async () => {
  closeCopilotStreams();
  await t.close();
});

const api = () => t.runtime.handler;
const lock = () => readCopilotLock(path.join(t.home, '.copilot', 'ide'));

/** An open_diff from the CLI, waiting in the queue: the review a selection is sent from. */
async function openReview(session: CopilotSession) {
  const answer = callTool(session, 'open_diff', {
    original_file_path: file,
    new_file_contents: PROPOSED,
    tab_name: 'Selection',
  });
  const review = await waitForReview(t.runtime.core);
  return { review, answer };
}

const selectionsOn = (stream: EventStream) =>
  stream.messages.filter((message) => message.method === 'selection_changed');

describe('Copilot CLI: Send to agent', () => {
  it('pushes selection_changed on the event stream: the text, the file, 0-based whole lines', async () => {
    const session = await connectCopilot(lock());
    const { review, answer } = await openReview(session);

    await api()('sendSelection', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'proposed',
      startLine: 0,
      endLine: 1,
    });
    const [proposed] = await until(
      () => (selectionsOn(session.stream).length === 1 ? selectionsOn(session.stream) : undefined),
      'selection_changed on the event stream',
    );
    expect(proposed).toEqual({
      jsonrpc: '2.0',
      method: 'selection_changed',
      params: {
        text: 'ONE\ntwo',
        filePath: file,
        fileUrl: pathToFileURL(file).href,
        selection: { start: { line: 0, character: 0 }, end: { line: 1, character: 3 }, isEmpty: false },
      },
    });

    // The file's own text (base) is sent just the same: what the lines held before the proposal.
    await api()('sendSelection', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'base',
      startLine: 4,
      endLine: 4,
    });
    const base = await until(() => selectionsOn(session.stream)[1], 'a second selection_changed');
    expect(base.params).toMatchObject({
      text: 'five',
      selection: { start: { line: 4, character: 0 }, end: { line: 4, character: 4 }, isEmpty: false },
    });

    await api()('reject', { reviewId: review.id });
    expect(JSON.parse((await answer).text)).toMatchObject({ result: 'REJECTED' });
  });

  it('refuses, saying why, while the CLI has no event stream open; nothing stale arrives once it opens', async () => {
    const session = await initializeCopilot(lock());
    const { review, answer } = await openReview(session);
    const send = (startLine: number) =>
      api()('sendSelection', {
        reviewId: review.id,
        fileIndex: 0,
        side: 'proposed',
        startLine,
        endLine: startLine,
      });

    await expect(send(0)).rejects.toThrow(/Copilot CLI is not listening .*event stream is closed/);

    const stream = await openCopilotStream(session);
    await send(2);
    await until(() => selectionsOn(stream)[0], 'selection_changed once the stream is open');
    expect(selectionsOn(stream).map((message) => (message.params as { text: string }).text)).toEqual([
      'three',
    ]);

    await api()('reject', { reviewId: review.id });
    await answer;
  });

  it('get_diagnostics answers [] as VS Code does with none, and no diagnostics_changed is ever pushed', async () => {
    const session = await connectCopilot(lock());
    const { review, answer } = await openReview(session);
    expect((await callTool(session, 'get_diagnostics', {})).text).toBe('[]');
    await api()('sendSelection', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'proposed',
      startLine: 0,
      endLine: 0,
    });
    await until(() => selectionsOn(session.stream)[0], 'selection_changed');
    expect(session.stream.messages.map((message) => message.method)).toEqual(['selection_changed']);
    await api()('reject', { reviewId: review.id });
    await answer;
  });
});
