/**
 * Per-client caps (issue 7, bounded memory): a client with MAX_PENDING_REVIEWS_PER_CLIENT reviews waiting
 * has one more refused with its protocol's error, the connection lives on, and other clients are not
 * held back.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/native-protocol';
import { MAX_PENDING_REVIEWS_PER_CLIENT } from '../../src-main/core/limits';
import { connectClaudeClient, texts } from '../support/claude-client';
import { connectGeminiClient } from '../support/gemini-client';
import { JsonSocket } from '../support/json-socket';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForSnapshot } from '../support/wait';

const CAP = MAX_PENDING_REVIEWS_PER_CLIENT;
const REFUSAL = new RegExp(`Too many pending reviews: .* already has ${CAP} proposals waiting`);

let t: TestRuntime;
const closers: Array<() => unknown> = [];

beforeEach(async () => {
  t = await startTestRuntime();
  for (let i = 0; i <= CAP + 1; i++) writeFileSync(fileAt(i), `line ${i}\n`);
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await t.close();
});

const fileAt = (i: number) => path.join(t.workspace, `f${i}.txt`);
const pendingCount = (count: number) =>
  waitForSnapshot(t.runtime.core, (s) =>
    s.reviews.filter((r) => r.state === 'pending').length === count ? true : undefined,
  );

describe('one pending review more than the cap', () => {
  it('Claude Code: openDiff answers a tool error naming the cap; another client still proposes', async () => {
    const connect = async () => {
      const client = await connectClaudeClient(
        t.runtime.bridge.port,
        t.runtime.bridge.tokenFor('claude-ide'),
      );
      closers.push(() => client.close());
      return client;
    };
    const client = await connect();
    for (let i = 0; i < CAP; i++) client.openDiff(fileAt(i), `LINE ${i}\n`, `tab ${i}`).catch(() => {});
    await pendingCount(CAP);
    const refused = await client.openDiff(fileAt(CAP), 'LINE\n', 'one more');
    expect(refused.isError).toBe(true);
    expect(texts(refused).join('\n')).toMatch(REFUSAL);
    expect(t.runtime.core.queue.pendingCount()).toBe(CAP);

    const other = await connect();
    other.openDiff(fileAt(CAP), 'LINE\n', 'from another client').catch(() => {});
    await pendingCount(CAP + 1);
    expect((await client.callTool('getWorkspaceFolders', {})).isError).toBeFalsy();
  });

  it('Gemini CLI: openDiff answers a tool error naming the cap', async () => {
    const client = await connectGeminiClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('gemini-ide'));
    closers.push(() => client.close());
    const openDiff = async (i: number) =>
      (await client.callTool({
        name: 'openDiff',
        arguments: { filePath: fileAt(i), newContent: `LINE ${i}\n` },
      })) as CallToolResult;
    for (let i = 0; i < CAP; i++) expect((await openDiff(i)).isError).toBeFalsy();
    const refused = await openDiff(CAP);
    expect(refused.isError).toBe(true);
    expect(texts(refused).join('\n')).toMatch(REFUSAL);
    expect(t.runtime.core.queue.pendingCount()).toBe(CAP);
  });

  it('Clio: an error message with code TOO_MANY_PENDING_REVIEWS', async () => {
    const socket = await JsonSocket.open(t.runtime.clio.port, {});
    closers.push(() => socket.close());
    socket.send({ type: 'connect', token: t.runtime.clio.token });
    await socket.waitFor((m) => m.type === 'connected');
    for (let i = 0; i < CAP; i++) socket.send({ type: 'openDiff', file: fileAt(i), after: `LINE ${i}\n` });
    await pendingCount(CAP);
    socket.send({ type: 'openDiff', file: fileAt(CAP), after: 'LINE\n' });
    const error = await socket.waitFor((m) => m.type === 'error');
    expect(error).toMatchObject({ code: 'TOO_MANY_PENDING_REVIEWS', file: fileAt(CAP) });
    expect(String(error.message)).toMatch(REFUSAL);
    expect(t.runtime.core.queue.pendingCount()).toBe(CAP);
  });

  it('native: an error_response with code 4004', async () => {
    const socket = await JsonSocket.open(t.runtime.native.port, {
      'x-difftray-authorization': t.runtime.native.token,
    });
    closers.push(() => socket.close());
    let id = 0;
    const request = (command: string, payload: unknown) => {
      const message_id = `m${++id}`;
      socket.send({ protocol_version: '1.0', message_id, type: 'request', command, payload });
      return socket.waitFor((m) => m.message_id === message_id);
    };
    expect((await request('hello', { client_name: 'cap-test' })).type).toBe('response');
    const propose = (i: number) =>
      request('propose_change_set', {
        title: `change ${i}`,
        files: [{ path: `f${i}.txt`, after: `LINE ${i}\n` }],
      });
    for (let i = 0; i < CAP; i++) expect((await propose(i)).type).toBe('response');
    const refused = await propose(CAP);
    expect(refused).toMatchObject({
      type: 'error_response',
      payload: { code: ErrorCode.TOO_MANY_PENDING_REVIEWS, details: { limit: CAP } },
    });
    expect(String((refused.payload as { message: string }).message)).toMatch(REFUSAL);
    expect(t.runtime.core.queue.pendingCount()).toBe(CAP);
    expect((await request('heartbeat', {})).type).toBe('response');
  });
});
