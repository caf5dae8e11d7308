/**
 * (g) Context services under load: the real headless app (`node dist/main/headless.cjs`, a child
 * process) with a 100,000-file folder in its workspace. The window's app API round trip (getSnapshot
 * over the headless server's WebSocket, as the page calls it) is timed while 30 regular expression
 * searches over that folder run (10 native clients, 3 each, all sent at once), against the same round
 * trip with nothing running. Blocks of the two alternate; after each busy block the search clients
 * leave (their waiting searches are dropped) and the app is let go quiet before the next idle block.
 * The walks and searches run in worker threads: the window should not wait on them (issue 23, item 10).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { NATIVE_AUTH_HEADER } from '../shared/native-protocol';
import { startHeadlessProcess } from '../test/support/headless-process';
import { cpuSeconds } from './support/app-process';
import { figure } from './support/results';
import { since, sleep } from './support/stats';

const FILES = 100_000;
const CLIENTS = 10;
const SEARCHES_PER_CLIENT = 3;
const ROUNDS = 3;
const PER_BLOCK = 20;
/** Between two round trips of a block: samples spread over the searches' run, not one burst. */
const SPACING_MS = 25;

/** `big/` with FILES files of about 300 bytes, one folder: a walk of it is one long listing. */
function writeFolder(workspace: string): void {
  const folder = path.join(workspace, 'big');
  mkdirSync(folder);
  const body = Array.from({ length: 10 }, (_, l) => `export const v${l} = ${l};`).join('\n');
  for (let i = 0; i < FILES; i++) {
    const extra = i % 1000 === 0 ? `\ncall(needle${i});` : '';
    writeFileSync(path.join(folder, `f${String(i).padStart(6, '0')}.ts`), `${body}${extra}\n`);
  }
}

/** The native endpoint's lock file in DIFFTRAY_HOME: `<port>.lock` with its token. */
function nativeLock(home: string): { port: number; token: string } {
  const dir = path.join(home, '.difftray');
  const name = readdirSync(dir).find((entry) => /^\d+\.lock$/.test(entry));
  if (!name) throw new Error(`No native lock file in ${dir}`);
  const lock = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { authToken: string };
  return { port: Number(path.basename(name, '.lock')), token: lock.authToken };
}

function open(url: string, options: WebSocket.ClientOptions): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The window: getSnapshot round trips over the app API. */
async function windowApi(uiUrl: string): Promise<{ roundTrip: () => Promise<number>; close: () => void }> {
  const { host, searchParams } = new URL(uiUrl);
  const socket = await open(`ws://${host}/api?token=${searchParams.get('token')}`, {
    origin: `http://${host}`,
  });
  const waiting = new Map<number, () => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number };
    if (message.id !== undefined) waiting.get(message.id)?.();
  });
  let next = 1;
  return {
    roundTrip: () => {
      const id = next++;
      const start = performance.now();
      socket.send(JSON.stringify({ id, method: 'getSnapshot', params: {} }));
      return new Promise((resolve) =>
        waiting.set(id, () => {
          waiting.delete(id);
          resolve(since(start));
        }),
      );
    },
    close: () => socket.close(),
  };
}

/** CLIENTS native clients, each sending SEARCHES_PER_CLIENT regex searches at once. */
async function startSearches(port: number, token: string) {
  const sockets: WebSocket[] = [];
  let answered = 0;
  let failed = 0;
  for (let c = 0; c < CLIENTS; c++) {
    const socket = await open(`ws://127.0.0.1:${port}`, { headers: { [NATIVE_AUTH_HEADER]: token } });
    sockets.push(socket);
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; command: string };
      if (message.command !== 'search_workspace') return;
      if (message.type === 'response') answered++;
      else failed++;
    });
    const send = (message_id: string, command: string, payload: unknown) =>
      socket.send(JSON.stringify({ protocol_version: '1.0', message_id, type: 'request', command, payload }));
    send('h', 'hello', { client_name: `searcher ${c}` });
    for (let s = 0; s < SEARCHES_PER_CLIENT; s++) {
      send(`s${s}`, 'search_workspace', { query: 'needle\\d+', isRegex: true, maxResults: 500 });
    }
  }
  return {
    answered: () => answered,
    failed: () => failed,
    close: () => sockets.forEach((socket) => socket.close()),
  };
}

/** Waits until the app used under 2 % of a core over half a second: its workers are done. */
async function quiet(pid: number): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const before = cpuSeconds(pid);
    await sleep(500);
    if (cpuSeconds(pid) - before < 0.01) return;
  }
  throw new Error('The app did not go quiet within 2 minutes');
}

async function block(roundTrip: () => Promise<number>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < PER_BLOCK; i++) {
    samples.push(await roundTrip());
    await sleep(SPACING_MS);
  }
  return samples;
}

const app = await startHeadlessProcess('context-load');
try {
  writeFolder(app.workspace);
  const { port, token } = nativeLock(app.home);
  const ui = await windowApi(app.url);
  for (let i = 0; i < 20; i++) await ui.roundTrip();
  const idle: number[] = [];
  const busy: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await quiet(app.child.pid!);
    idle.push(...(await block(ui.roundTrip)));
    const searches = await startSearches(port, token);
    busy.push(...(await block(ui.roundTrip)));
    const total = CLIENTS * SEARCHES_PER_CLIENT;
    console.log(
      `      round ${round + 1}: ${searches.answered()} of ${total} searches answered, ${searches.failed()} refused, by the end of the busy block`,
    );
    searches.close();
  }
  ui.close();
  figure(
    'g',
    `UI round trip while ${CLIENTS * SEARCHES_PER_CLIENT} regex searches run over ${FILES.toLocaleString('en')} files`,
    'ms',
    busy,
    'idle',
    idle,
    '≤ 1.5×, none over 100 ms',
  );
  const over = busy.filter((ms) => ms > 100).length;
  console.log(
    `      longest UI round trip: busy ${Math.max(...busy).toFixed(1)} ms (${over} of ${busy.length} over 100 ms), idle ${Math.max(...idle).toFixed(1)} ms`,
  );
} finally {
  await app.stop();
}
