/**
 * Finding 4 (issue 7), sizes: every protocol refuses a string over its limit with an error that names
 * the limit, adds no review, and keeps the connection answering. The same 10 MB per file everywhere.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIO_MAX_EDITS } from '../../src-main/bridge/clio/messages';
import { ErrorCode } from '../../shared/native-protocol';
import { MAX_FILE_BYTES, MAX_LABEL_CHARS, MAX_NOTE_CHARS, MAX_PATH_CHARS } from '../../src-main/core/limits';
import { connectClaudeClient, texts, type ClaudeTestClient } from '../support/claude-client';
import { connectGeminiClient } from '../support/gemini-client';
import { JsonSocket } from '../support/json-socket';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

let t: TestRuntime;
let file: string;
const closers: Array<() => unknown> = [];

beforeEach(async () => {
  t = await startTestRuntime();
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, 'one\ntwo\n');
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await t.close();
});

/** One byte over the file limit, in ASCII; and in two-byte characters, at only half as many characters. */
const tooBigAscii = () => 'a'.repeat(MAX_FILE_BYTES + 1);
const tooBigInBytesOnly = () => 'é'.repeat(MAX_FILE_BYTES / 2 + 1);
const NAMES_THE_LIMIT = /10 MB/;

/** Resolves with what `call` answered, or 'a review was added' if the queue took the proposal instead. */
async function answerWithoutReview<T>(call: Promise<T>): Promise<T> {
  const added = waitForReview(t.runtime.core).then(() => 'a review was added' as const);
  const result = await Promise.race([call, added]);
  expect(result).not.toBe('a review was added');
  expect(t.runtime.core.queue.pendingCount()).toBe(0);
  return result as T;
}

async function claude(): Promise<ClaudeTestClient> {
  const client = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
  closers.push(() => client.close());
  return client;
}

async function gemini(): Promise<Client> {
  const client = await connectGeminiClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('gemini-ide'));
  closers.push(() => client.close());
  return client;
}

async function clio(): Promise<JsonSocket> {
  const socket = await JsonSocket.open(t.runtime.clio.port, {});
  closers.push(() => socket.close());
  socket.send({ type: 'connect', token: t.runtime.clio.token });
  await socket.waitFor((m) => m.type === 'connected');
  return socket;
}

let nextId = 1;
async function nativeRequest(socket: JsonSocket, command: string, payload: unknown) {
  const message_id = `m${nextId++}`;
  socket.send({ protocol_version: '1.0', message_id, type: 'request', command, payload });
  return socket.waitFor((m) => m.message_id === message_id);
}

async function native(): Promise<JsonSocket> {
  const socket = await JsonSocket.open(t.runtime.native.port, {
    'x-difftray-authorization': t.runtime.native.token,
  });
  closers.push(() => socket.close());
  expect((await nativeRequest(socket, 'hello', { client_name: 'limits-test' })).type).toBe('response');
  return socket;
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return texts(result).join('\n');
}

describe('Claude Code openDiff', () => {
  const args = (overrides: Record<string, unknown>) => ({
    old_file_path: file,
    new_file_path: file,
    new_file_contents: 'one\nTWO\n',
    tab_name: 'notes',
    ...overrides,
  });

  it('refuses a proposal over 10 MB, naming the limit, and the connection lives on', async () => {
    const client = await claude();
    const result = await answerWithoutReview(
      client.callTool('openDiff', args({ new_file_contents: tooBigAscii() })),
    );
    expect(errorText(result)).toMatch(NAMES_THE_LIMIT);
    const multiByte = await answerWithoutReview(
      client.callTool('openDiff', args({ new_file_contents: tooBigInBytesOnly() })),
    );
    expect(errorText(multiByte)).toMatch(NAMES_THE_LIMIT);
    expect((await client.callTool('getOpenEditors', {})).isError).toBeFalsy();
  });

  it('refuses a tab name over the label limit and a path over the path limit', async () => {
    const client = await claude();
    const longTab = await answerWithoutReview(
      client.callTool('openDiff', args({ tab_name: 't'.repeat(MAX_LABEL_CHARS + 1) })),
    );
    expect(errorText(longTab)).toContain(String(MAX_LABEL_CHARS));
    const longPath = await client.callTool('close_tab', { tab_name: 'x'.repeat(MAX_LABEL_CHARS + 1) });
    expect(errorText(longPath)).toContain(String(MAX_LABEL_CHARS));
    const longFile = await client.callTool('openFile', { filePath: `/${'p'.repeat(MAX_PATH_CHARS)}` });
    expect(errorText(longFile)).toContain(String(MAX_PATH_CHARS));
  });

  it('still takes a proposal of exactly 10 MB', async () => {
    const client = await claude();
    // Answered only once decided; the connection closes first.
    client.callTool('openDiff', args({ new_file_contents: 'a'.repeat(MAX_FILE_BYTES) })).catch(() => {});
    const review = await waitForReview(t.runtime.core);
    expect(review.title).toBe('notes.txt');
  });
});

describe('Gemini CLI openDiff', () => {
  it('refuses a proposal over 10 MB (counted in UTF-8 bytes), naming the limit', async () => {
    const client = await gemini();
    for (const newContent of [tooBigAscii(), tooBigInBytesOnly()]) {
      const result = (await answerWithoutReview(
        client.callTool({ name: 'openDiff', arguments: { filePath: file, newContent } }),
      )) as CallToolResult;
      expect(errorText(result)).toMatch(NAMES_THE_LIMIT);
    }
  });
});

describe('Clio', () => {
  it('refuses a description over the note limit with an error message and a code', async () => {
    const socket = await clio();
    socket.send({ type: 'openDiff', file, after: 'one\nTWO\n', description: 'd'.repeat(MAX_NOTE_CHARS + 1) });
    const error = await answerWithoutReview(socket.waitFor((m) => m.type === 'error'));
    expect(error).toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(String(error.message)).toContain(String(MAX_NOTE_CHARS));
  });

  it('refuses more range edits than it takes, and a status line over the label limit', async () => {
    const socket = await clio();
    const edit = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      newText: 'x',
    };
    socket.send({ type: 'proposeDiff', file, edits: Array(CLIO_MAX_EDITS + 1).fill(edit) });
    const tooMany = await answerWithoutReview(socket.waitFor((m) => m.type === 'error'));
    expect(tooMany).toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(String(tooMany.message)).toContain('edits');
    socket.received.length = 0;
    socket.send({ type: 'status', message: 's'.repeat(MAX_LABEL_CHARS + 1) });
    expect(await socket.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(t.runtime.core.clients.list().every((c) => c.status === undefined)).toBe(true);
  });

  it('refuses an openDiff over 10 MB in UTF-8 bytes, naming the limit', async () => {
    const socket = await clio();
    socket.send({ type: 'openDiff', file, after: tooBigInBytesOnly() });
    const error = await answerWithoutReview(socket.waitFor((m) => m.type === 'error'));
    expect(String(error.message)).toMatch(NAMES_THE_LIMIT);
  });
});

describe('native change sets', () => {
  it('refuses a title over the label limit and a rationale over the note limit with 2004', async () => {
    const socket = await native();
    const files = [{ path: 'notes.txt', after: 'one\nTWO\n' }];
    for (const payload of [
      { title: 't'.repeat(MAX_LABEL_CHARS + 1), files },
      { title: 'ok', rationale: 'r'.repeat(MAX_NOTE_CHARS + 1), files },
      { title: 'ok', files, acceptance_criteria: ['c'.repeat(MAX_NOTE_CHARS + 1)] },
    ]) {
      const answer = await answerWithoutReview(nativeRequest(socket, 'propose_change_set', payload));
      expect(answer).toMatchObject({ type: 'error_response', payload: { code: ErrorCode.INVALID_PAYLOAD } });
    }
  });

  it('refuses a file over 10 MB in UTF-8 bytes with 3002, naming the limit', async () => {
    const socket = await native();
    const answer = await answerWithoutReview(
      nativeRequest(socket, 'propose_change_set', {
        title: 'big',
        files: [{ path: 'notes.txt', after: tooBigInBytesOnly() }],
      }),
    );
    expect(answer).toMatchObject({ type: 'error_response', payload: { code: ErrorCode.FILE_TOO_LARGE } });
    expect(JSON.stringify(answer.payload)).toMatch(NAMES_THE_LIMIT);
  });
});

describe('app API', () => {
  it('refuses a reject reason over the note limit and an edited text over 10 MB, leaving the review pending', async () => {
    const client = await claude();
    client
      .callTool('openDiff', {
        old_file_path: file,
        new_file_path: file,
        new_file_contents: 'one\nTWO\n',
        tab_name: 'notes',
      })
      .catch(() => {});
    const review = await waitForReview(t.runtime.core);
    const api = t.runtime.handler;
    await expect(
      api('reject', { reviewId: review.id, reason: 'r'.repeat(MAX_NOTE_CHARS + 1) }),
    ).rejects.toThrow(String(MAX_NOTE_CHARS));
    await expect(
      api('editProposal', { reviewId: review.id, fileIndex: 0, proposedText: tooBigInBytesOnly() }),
    ).rejects.toThrow(NAMES_THE_LIMIT);
    expect(t.runtime.core.queue.summary(review.id).state).toBe('pending');
    expect(t.runtime.core.queue.contents(review.id)[0]!.proposedText).toBe('one\nTWO\n');
  });
});
