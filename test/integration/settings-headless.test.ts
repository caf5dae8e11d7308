/**
 * settings.json and the real headless app in its own process, through the API socket the window opens:
 * a file broken by hand while it runs is reported, a change is refused and the file left as written; the
 * fix is picked up without a restart.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppSnapshot, HeadlessServerMessage } from '../../shared/app-api';
import { BUILD_TIMEOUT_MS, buildMain } from '../support/build';
import { startHeadlessProcess, type HeadlessProcess } from '../support/headless-process';
import { until } from '../support/wait';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

/** The API socket as the window opens it; each call answered by id. */
class ApiSocket {
  private readonly answers = new Map<number, HeadlessServerMessage>();
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as HeadlessServerMessage;
      if ('id' in message) this.answers.set(message.id, message);
    });
  }

  static open(url: string): Promise<ApiSocket> {
    const { port, searchParams } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${searchParams.get('token')}`, {
        origin: `http://127.0.0.1:${port}`,
      });
      socket.once('open', () => resolve(new ApiSocket(socket)));
      socket.once('error', reject);
    });
  }

  async call(method: string, params: unknown = {}): Promise<HeadlessServerMessage> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return until(() => this.answers.get(id), `the answer to ${method}`);
  }

  async snapshot(): Promise<AppSnapshot> {
    const answer = await this.call('getSnapshot');
    if (!('result' in answer)) throw new Error(`getSnapshot failed: ${JSON.stringify(answer)}`);
    return answer.result as AppSnapshot;
  }
}

let app: HeadlessProcess;
let api: ApiSocket;
let file: string;

beforeEach(async () => {
  app = await startHeadlessProcess('settings-headless');
  api = await ApiSocket.open(app.url);
  file = path.join(app.env.DIFFTRAY_HOME!, 'settings.json');
}, 30_000);

afterEach(async () => {
  api.socket.terminate();
  await app.stop();
});

describe('settings in the headless app', () => {
  it('a file broken by hand is reported in the snapshot; updateSettings is refused and the file left byte for byte; a fix applies without a restart', async () => {
    expect((await api.snapshot()).settingsFile).toEqual({ path: file });

    const broken = '{ "theme": "dark", }\n';
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, broken);
    const problem = await pollSnapshot((s) => s.settingsFile?.problem, 'the problem reported');
    expect(problem).toMatch(/settings\.json is not valid JSON/);

    const refused = await api.call('updateSettings', { theme: 'light' });
    expect(refused).toMatchObject({
      error: { message: expect.stringMatching(/^Settings not changed: .*not valid JSON/) },
    });
    expect(readFileSync(file, 'utf8')).toBe(broken);

    writeFileSync(file, '{ "theme": "dark" }\n');
    const fixed = await pollSnapshot(
      (s) => (s.settingsFile?.problem === undefined ? s : undefined),
      'the fix read',
    );
    expect(fixed.settings?.theme).toBe('dark');
    expect(await api.call('updateSettings', { launchAtLogin: true })).toMatchObject({
      result: { theme: 'dark', launchAtLogin: true },
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'dark', launchAtLogin: true });
  });
});

/** Asks for the snapshot until `pick` finds what it waits for (a hand edit is read after a short quiet). */
async function pollSnapshot<T>(pick: (snapshot: AppSnapshot) => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = pick(await api.snapshot());
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
