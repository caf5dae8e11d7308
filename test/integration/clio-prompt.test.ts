/**
 * A Clio client that sends no token (the real Clio CLI, seed 000) against the real runtime: it is never
 * answered silently; the person is asked, naming the client's process (its pid and working folder); Allow
 * once lets this connection review, Deny or no answer closes it with an `error` first, "Always allow this
 * program" is kept in settings.json across a restart until revoked. The client runs in a child process,
 * as the real CLI does, so its pid is not ours.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionRequest } from '../../shared/app-api';
import { MAX_PREAUTH_FRAME_BYTES } from '../../src-main/loopback/frame-limits';
import { MAX_CONNECTION_REQUESTS } from '../../src-main/core/limits';
import { MAX_PENDING_PREAUTH_CONNECTIONS } from '../../src-main/loopback/socket-guard';
import {
  CLIO_CHILD_SCRIPT,
  CLIO_FLOOD_SCRIPT,
  ClioChild,
  type ClioChildOptions,
} from '../support/clio-child';
import { JsonSocket } from '../support/json-socket';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

const linux = process.platform === 'linux';

let t: TestRuntime | undefined;
const children: ClioChild[] = [];
const sockets: JsonSocket[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.stop();
  for (const socket of sockets.splice(0)) socket.close();
  await t?.close();
  t = undefined;
});

async function start(options: Parameters<typeof startTestRuntime>[0] = {}): Promise<TestRuntime> {
  t = await startTestRuntime(options);
  writeFileSync(path.join(t.workspace, 'a.txt'), 'one\ntwo\n');
  mkdirSync(path.join(t.workspace, 'app'));
  return t;
}

function clioChild(options: ClioChildOptions & { cwd?: string } = {}): ClioChild {
  const child = ClioChild.start(t!.runtime.clio.port, options.cwd ?? path.join(t!.workspace, 'app'), options);
  children.push(child);
  return child;
}

const api = (method: string, params: unknown) => t!.runtime.handler(method, params);
const requests = () => t!.runtime.core.snapshot().connectionRequests;
const requestOf = (pid: number): Promise<ConnectionRequest> =>
  until(() => requests().find((request) => request.pid === pid), `a connection request from pid ${pid}`);

const proposeDiff = (file: string) => ({
  type: 'proposeDiff',
  file,
  edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, newText: 'ONE' }],
});

describe.runIf(linux)('a Clio client without a token', () => {
  it('is named by its process in the prompt; Allow once lets this connection review; the next one is asked again', async () => {
    await start();
    const child = clioChild();
    const request = await requestOf(child.pid);
    expect(request).toMatchObject({
      name: 'Clio',
      protocol: 'clio',
      identifiedBy: 'process',
      pid: child.pid,
      executable: expect.stringMatching(/node/),
      script: CLIO_CHILD_SCRIPT,
      cwd: path.join(t!.workspace, 'app'),
    });
    // Nothing answered while the person has not decided.
    expect(child.received).toEqual([{ open: true }]);
    expect(t!.runtime.core.snapshot().clients).toEqual([]);

    await api('answerConnectionRequest', { requestId: request.id, answer: 'once' });
    expect(await child.waitFor((m) => m.type === 'connected')).toMatchObject({ ideName: 'DiffTray' });
    expect(requests()).toEqual([]);
    // Listed under Connections with the process the prompt named.
    expect(t!.runtime.core.snapshot().clients).toEqual([
      expect.objectContaining({ name: 'Clio', pid: child.pid, workspace: path.join(t!.workspace, 'app') }),
    ]);
    const file = path.join(t!.workspace, 'a.txt');
    child.send(proposeDiff(file));
    const review = await waitForReview(t!.runtime.core, (r) => r.client.name === 'Clio');
    expect(review.files[0]!.path).toBe(file);
    await api('decideAll', { reviewId: review.id, decision: 'accepted' });
    await api('submit', { reviewId: review.id });
    expect(await child.waitFor((m) => m.type === 'diffAccepted')).toMatchObject({ content: 'ONE\ntwo\n' });

    // Once was for that connection only.
    const second = clioChild();
    await requestOf(second.pid);
    expect(second.received).toEqual([{ open: true }]);
  });

  it('Deny: the client is told, then the socket is closed', async () => {
    await start();
    const child = clioChild();
    const request = await requestOf(child.pid);
    await api('answerConnectionRequest', { requestId: request.id, answer: 'deny' });
    expect(await child.closed).toEqual({
      code: 1008,
      reason: 'The person denied this connection in DiffTray',
    });
    expect(child.received.at(-1)).toEqual({
      type: 'error',
      code: 'UNAUTHORIZED',
      message: 'The person denied this connection in DiffTray: closing the connection',
    });
    expect(requests()).toEqual([]);
    expect(t!.runtime.core.snapshot().clients).toEqual([]);
  });

  it('unanswered: closed with an error when the time limit passes; the prompt goes away', async () => {
    await start({ connectionPromptMs: 300 });
    const child = clioChild();
    await requestOf(child.pid);
    expect((await child.closed).code).toBe(1008);
    expect(child.received.at(-1)).toMatchObject({
      type: 'error',
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/Nobody allowed this connection in DiffTray within 300 ms/),
    });
    expect(requests()).toEqual([]);
  });

  it('the client leaving withdraws its prompt', async () => {
    await start();
    const child = clioChild();
    await requestOf(child.pid);
    child.stop();
    await until(() => (requests().length === 0 ? true : undefined), 'the prompt withdrawn');
  });

  it('Always: kept in settings.json, let in without a prompt after a restart, asked again once revoked', async () => {
    await start();
    const child = clioChild();
    const request = await requestOf(child.pid);
    await api('answerConnectionRequest', { requestId: request.id, answer: 'always' });
    await child.waitFor((m) => m.type === 'connected');
    const settingsFile = path.join(t!.home, '.difftray', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { trustedPrograms: unknown[] };
    expect(settings.trustedPrograms).toEqual([
      {
        name: 'Clio',
        executable: request.executable,
        script: CLIO_CHILD_SCRIPT,
        argv: [expect.stringMatching(/node/), CLIO_CHILD_SCRIPT],
        environment: expect.any(Object),
      },
    ]);
    child.stop();

    await t!.restart();
    const [trusted] = t!.runtime.core.snapshot().trustedPrograms;
    expect(trusted).toMatchObject({
      name: 'Clio',
      executable: request.executable,
      script: CLIO_CHILD_SCRIPT,
    });
    const again = clioChild();
    await again.waitFor((m) => m.type === 'connected');
    expect(requests()).toEqual([]);
    again.stop();

    await api('revokeTrustedProgram', { key: trusted!.key });
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ trustedPrograms: [] });
    const revoked = clioChild();
    await requestOf(revoked.pid);
    expect(revoked.received).toEqual([{ open: true }]);
  });

  it('the token path is unchanged: connect with the token is let in at once, no prompt', async () => {
    await start();
    const socket = await JsonSocket.open(t!.runtime.clio.port, {});
    sockets.push(socket);
    socket.send({ type: 'connect', token: t!.runtime.clio.token });
    await socket.waitFor((m) => m.type === 'connected');
    expect(requests()).toEqual([]);
  });
});

describe.runIf(linux)('attacks before the person allows', () => {
  it('a client claiming another name is named as it claims, but known by its process: a name trusted in settings does not let it in, nor does another script', async () => {
    await start({
      beforeStart: (home) => {
        mkdirSync(path.join(home, '.difftray'), { recursive: true });
        writeFileSync(
          path.join(home, '.difftray', 'settings.json'),
          JSON.stringify({ trustedPrograms: [{ name: 'Claude Code' }] }),
        );
      },
    });
    const impostor = clioChild({ clientName: 'Claude Code' });
    const request = await requestOf(impostor.pid);
    expect(request).toMatchObject({
      name: 'Claude Code',
      identifiedBy: 'process',
      script: CLIO_CHILD_SCRIPT,
    });
    await api('answerConnectionRequest', { requestId: request.id, answer: 'always' });
    await impostor.waitFor((m) => m.type === 'connected');

    // Another program (a copy of the script elsewhere) giving the same name is asked again.
    const app = path.join(t!.workspace, 'app');
    const copy = path.join(app, 'other-client.mjs');
    copyFileSync(CLIO_CHILD_SCRIPT, copy);
    symlinkSync(path.resolve(__dirname, '..', '..', 'node_modules'), path.join(app, 'node_modules'));
    const other = clioChild({ clientName: 'Claude Code', script: copy });
    expect(await requestOf(other.pid)).toMatchObject({ name: 'Claude Code', script: copy });
    expect(other.received).toEqual([{ open: true }]);
  });

  // Needs a second user: run as root, the client runs as nobody (65534).
  it.runIf(process.getuid?.() === 0)(
    'a client running as another user is refused outright, with no prompt',
    async () => {
      await start();
      const stranger = ClioChild.start(t!.runtime.clio.port, '/', { uid: 65534, gid: 65534 });
      children.push(stranger);
      expect((await stranger.closed).code).toBe(1008);
      expect(stranger.received.at(-1)).toMatchObject({
        type: 'error',
        code: 'UNAUTHORIZED',
        message: expect.stringMatching(/runs as another user \(uid 65534\)/),
      });
      expect(requests()).toEqual([]);
    },
  );

  it('other messages before allowing are refused unread and nothing is kept for later', async () => {
    await start();
    const child = clioChild();
    const request = await requestOf(child.pid);
    const file = path.join(t!.workspace, 'a.txt');
    child.send(proposeDiff(file));
    child.send({ type: 'connect', token: t!.runtime.clio.token });
    child.send({ type: 'status', message: 'hello' });
    await until(
      () => (child.received.filter((m) => m.type === 'error').length === 3 ? true : undefined),
      'three refusals',
    );
    for (const message of child.received.slice(1)) {
      expect(message).toMatchObject({
        type: 'error',
        code: 'UNAUTHORIZED',
        message: expect.stringMatching(/Waiting for the person/),
      });
    }
    expect(t!.runtime.core.snapshot().reviews).toEqual([]);
    await api('answerConnectionRequest', { requestId: request.id, answer: 'once' });
    await child.waitFor((m) => m.type === 'connected');
    // The proposal sent before was not queued: after `connected`, still no review.
    child.send({ type: 'status', message: 'after' });
    await until(
      () => t!.runtime.core.snapshot().clients.find((c) => c.status?.text === 'after'),
      'the status after allowing',
    );
    expect(t!.runtime.core.snapshot().reviews).toEqual([]);
  });

  it('a huge frame while waiting closes the socket (1009) and withdraws the prompt', async () => {
    await start();
    const socket = await JsonSocket.open(t!.runtime.clio.port, {});
    sockets.push(socket);
    socket.send({ type: 'connect' });
    await until(() => requests()[0], 'the prompt');
    const closed = new Promise<number>((resolve) => socket.socket.once('close', resolve));
    socket.socket.on('error', () => undefined);
    socket.socket.send('x'.repeat(MAX_PREAUTH_FRAME_BYTES + 1));
    expect(await closed).toBe(1009);
    await until(() => (requests().length === 0 ? true : undefined), 'the prompt withdrawn');
  });

  it(`many token-less clients of one program: one prompt; the rest are told and closed, past ${MAX_PENDING_PREAUTH_CONNECTIONS} refused at the upgrade`, async () => {
    await start();
    const opened = await Promise.allSettled(
      Array.from({ length: MAX_PENDING_PREAUTH_CONNECTIONS + 10 }, () =>
        JsonSocket.open(t!.runtime.clio.port, {}),
      ),
    );
    const open = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    sockets.push(...open);
    expect(open.length).toBeLessThanOrEqual(MAX_PENDING_PREAUTH_CONNECTIONS);
    for (const o of opened) if (o.status === 'rejected') expect(String(o.reason)).toMatch(/503/);
    for (const socket of open) socket.send({ type: 'connect' });
    const refusedNow = () => open.filter((socket) => socket.received.some((m) => m.type === 'error'));
    // All of them are this test's own process: one program, so one prompt (core allows
    // MAX_CONNECTION_REQUESTS of different programs: test/unit/connection-requests.test.ts).
    const refused = await until(
      () => (refusedNow().length === open.length - 1 ? refusedNow() : undefined),
      'the refusals',
    );
    for (const socket of refused) {
      expect(socket.received[0]).toMatchObject({
        type: 'error',
        message: expect.stringMatching(/already asks the person about this program/),
      });
    }
    expect(requests()).toHaveLength(1);
    expect(MAX_CONNECTION_REQUESTS).toBeGreaterThan(1);
  });

  it('attack: a program that connects and leaves again and again gets one prompt, then is told to wait', async () => {
    await start();
    const seen = new Set<string>();
    t!.runtime.core.connectionRequests.onChange(() => {
      for (const request of requests()) seen.add(request.id);
    });
    const flood = spawn(process.execPath, [CLIO_FLOOD_SCRIPT, '30'], {
      cwd: path.join(t!.workspace, 'app'),
      env: { ...process.env, CLIO_CHILD_PORT: String(t!.runtime.clio.port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    flood.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => flood.once('exit', resolve));
    const errors = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { error?: string });
    expect(errors).toHaveLength(30);
    expect(seen.size).toBe(1);
    // The first one was asked (and withdrawn as it left); the later ones are told why (those that
    // stayed long enough to hear it), or that the first still waits if they came before it left.
    const told = /asked about this program recently|already asks the person about this program/;
    const answered = errors.filter((e) => e.error !== undefined);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((e) => !told.test(e.error!))).toEqual([]);
  });

  it('attack: "Always allow" for a script admits neither `node -r other.js <script>` nor NODE_OPTIONS=--require', async () => {
    await start();
    const app = path.join(t!.workspace, 'app');
    const trusted = clioChild();
    await api('answerConnectionRequest', { requestId: (await requestOf(trusted.pid)).id, answer: 'always' });
    await trusted.waitFor((m) => m.type === 'connected');
    const again = clioChild();
    await again.waitFor((m) => m.type === 'connected');

    const injected = path.join(app, 'injected.cjs');
    writeFileSync(injected, '// code the person never allowed\n');
    const required = clioChild({ nodeArgs: ['-r', injected] });
    const asked = await requestOf(required.pid);
    expect(asked).toMatchObject({
      script: CLIO_CHILD_SCRIPT,
      argv: expect.arrayContaining(['-r', injected]),
    });
    expect(required.received).toEqual([{ open: true }]);
    await api('answerConnectionRequest', { requestId: asked.id, answer: 'once' });
    await required.waitFor((m) => m.type === 'connected');

    const optioned = clioChild({ env: { NODE_OPTIONS: `--require=${injected}` } });
    const askedToo = await requestOf(optioned.pid);
    expect(askedToo).toMatchObject({
      script: CLIO_CHILD_SCRIPT,
      environment: { NODE_OPTIONS: `--require=${injected}` },
    });
    expect(optioned.received).toEqual([{ open: true }]);
  });
});
