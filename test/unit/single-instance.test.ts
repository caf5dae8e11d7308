/**
 * The instance record and the hand-over decision (src-main/instance-file.ts, single-instance.ts), with
 * real files, real processes and real loopback ports: a record is live only while its process is the one
 * that wrote it and the program on its port proves to be that DiffTray (a real runtime's native endpoint
 * answers the handshake's challenge with its lock file's token; a stranger on the port cannot).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { rawDataToString } from '../../src-main/loopback/raw-data';
import { processStartTime } from '../../src-main/core/clients/process-info';
import {
  createRecord,
  instanceFile,
  ownRecord,
  readRecord,
  removeOwnRecord,
  removeRecordIfUnchanged,
  updateRecord,
  type InstanceRecord,
} from '../../src-main/instance-file';
import {
  askToShow,
  claimInstance,
  describeInstance,
  electronHandOver,
  handOverWanted,
  secondDesktopStart,
  recordState,
  secondStart,
  type OwnInstance,
} from '../../src-main/single-instance';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { NATIVE_PROTOCOL_VERSION, type NativeLockFile } from '../../shared/native-protocol';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempHome(): string {
  const temp = makeTempDir('single-instance');
  cleanups.push(temp.cleanup);
  return path.join(temp.dir, '.difftray');
}

/** A real DiffTray runtime in this process: its native endpoint serves, its lock file in `home`. */
let difftray: TestRuntime;
beforeAll(async () => {
  difftray = await startTestRuntime();
}, 30_000);
afterAll(() => difftray.close());

/** The running DiffTray's home, where its native lock file is. */
const difftrayHomeDir = () => path.join(difftray.home, '.difftray');

/** Listens on a loopback port (closed after the test) as `server` does: a program that is not DiffTray. */
async function foreignPort(server: net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

/** Programs that could hold a crashed DiffTray's port since: none of them can prove it is DiffTray. */
const strangers = {
  'accepts and closes': () => net.createServer((socket) => socket.destroy()),
  'accepts and says nothing': () => net.createServer(() => {}),
  'speaks HTTP': () => http.createServer((_request, response) => response.end('hello')),
  // DiffTray's own page for plain HTTP on its native port, upgrades and all refused.
  'refuses the upgrade': () =>
    http.createServer((_request, response) => {
      response.writeHead(426).end('DiffTray native protocol: WebSocket only');
    }),
  // Programs that take the upgrade and answer the challenge with anything but DiffTray's proof.
  'answers with a 1 MB frame': () => webSocketStranger((socket) => socket.send('x'.repeat(1024 * 1024))),
  'answers in binary': () => webSocketStranger((socket) => socket.send(Buffer.from([0, 1, 2, 255]))),
  'answers with malformed JSON': () => webSocketStranger((socket) => socket.send('{"type": "response",')),
  'echoes the challenge back': () => webSocketStranger((socket, request) => socket.send(request)),
};

/** An HTTP server that takes any WebSocket upgrade and answers the first message with `answer`. */
function webSocketStranger(answer: (socket: WebSocket, request: string) => void): http.Server {
  const server = http.createServer();
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) =>
    socket.once('message', (data: RawData) => answer(socket, rawDataToString(data))),
  );
  server.once('close', () => sockets.close());
  return server;
}

/** What a DiffTray that served on `port` left in `home`: its native lock file, naming this process. */
function lockFileFor(home: string, port: number): void {
  const processStart = processStartTime(process.pid);
  const lock: NativeLockFile = {
    pid: process.pid,
    ...(processStart !== undefined && { processStart }),
    port,
    authToken: 'a'.repeat(64),
    workspaceFolders: [],
    ideName: 'DiffTray',
    transport: 'ws',
    protocol_version: NATIVE_PROTOCOL_VERSION,
  };
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(home, `${port}.lock`), JSON.stringify(lock), { mode: 0o600 });
}

/** A loopback port nothing listens on (one that just closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The pid and start time of a process that ran and is gone: a DiffTray that crashed. */
async function deadProcess(): Promise<{ pid: number; processStart?: string }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = child.pid!;
  const processStart = processStartTime(pid);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return { pid, ...(processStart !== undefined && { processStart }) };
}

function claimed(instance: OwnInstance): OwnInstance {
  cleanups.push(() => instance.release());
  return instance;
}

/** This process's record, serving on `port`: what a live DiffTray's record says. */
const liveRecord = (port: number | undefined, uiPort?: number): InstanceRecord => ({
  ...ownRecord('headless'),
  ...(port !== undefined && { port }),
  ...(uiPort !== undefined && { uiPort }),
});

describe('the instance record', () => {
  it('is created 0600 in a 0700 home, and only once', () => {
    const home = tempHome();
    const file = instanceFile(home);
    expect(createRecord(file, ownRecord('desktop'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readRecord(file)?.record).toMatchObject({ pid: process.pid, shell: 'desktop' });
    // A second creation leaves the first as it was.
    const before = readFileSync(file, 'utf8');
    expect(createRecord(file, { ...ownRecord('headless'), pid: 1 })).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('is removed only by its own process, or when it still reads as it was judged', () => {
    const file = instanceFile(tempHome());
    createRecord(file, ownRecord('headless'));
    removeOwnRecord(file, process.pid + 1);
    expect(existsSync(file)).toBe(true);
    const judged = readRecord(file)!.text;
    // Rewritten meanwhile (a new start claimed it): it stays.
    writeFileSync(file, JSON.stringify({ ...ownRecord('headless'), port: 1 }));
    expect(removeRecordIfUnchanged(file, judged)).toBe(false);
    expect(existsSync(file)).toBe(true);
    removeOwnRecord(file);
    expect(existsSync(file)).toBe(false);
  });

  it('reads anything else as no record at all', () => {
    const file = instanceFile(tempHome());
    createRecord(file, ownRecord('headless'));
    for (const text of ['not json', '[]', '{"pid":-1,"startedAt":"x","shell":"headless"}', '{"pid":5}']) {
      writeFileSync(file, text);
      expect(readRecord(file)).toEqual({ text, record: undefined });
    }
  });
});

describe('recordState', () => {
  it('live: the process that wrote it, its port serving as that DiffTray', async () => {
    const port = difftray.runtime.native.port;
    expect(await recordState(liveRecord(port), difftrayHomeDir())).toBe('live');
  });

  it('starting: that process, with no port yet', async () => {
    expect(await recordState(liveRecord(undefined), tempHome())).toBe('starting');
  });

  it('stale: its process gone, its pid now another process, or its port closed', async () => {
    const port = difftray.runtime.native.port;
    const home = difftrayHomeDir();
    expect(await recordState({ ...liveRecord(port), ...(await deadProcess()) }, home)).toBe('stale');
    if (process.platform === 'linux') {
      // The pid alive, but started at another time: reused by some other process.
      expect(await recordState({ ...liveRecord(port), processStart: '1' }, home)).toBe('stale');
    }
    const closed = await closedPort();
    const left = tempHome();
    lockFileFor(left, closed);
    expect(await recordState(liveRecord(closed), left)).toBe('stale');
    expect(await recordState(undefined, home)).toBe('stale');
  });

  it.each(Object.entries(strangers))(
    'stale: its port now held by a program that %s, though its process and lock file are there',
    { timeout: 20_000 },
    async (_name, makeServer) => {
      const home = tempHome();
      const port = await foreignPort(makeServer());
      lockFileFor(home, port);
      expect(await recordState(liveRecord(port), home)).toBe('stale');
    },
  );

  it('stale: a DiffTray serves on its port, but not the one of its lock file (another home, another token)', async () => {
    const port = difftray.runtime.native.port;
    // No lock file for it in this home: nothing to prove against.
    expect(await recordState(liveRecord(port), tempHome())).toBe('stale');
    // A lock file whose token is not the one that DiffTray holds.
    const home = tempHome();
    lockFileFor(home, port);
    expect(await recordState(liveRecord(port), home)).toBe('stale');
  });
});

describe('claimInstance', () => {
  it('claims an empty home, and the claim says where it serves once it does', async () => {
    const home = tempHome();
    const claim = await claimInstance({ home, shell: 'headless' });
    expect(claim.kind).toBe('claimed');
    if (claim.kind !== 'claimed') return;
    const instance = claimed(claim.instance);
    const record = readRecord(instanceFile(home))?.record;
    expect(record).toMatchObject({ pid: process.pid, shell: 'headless' });
    expect(record?.port).toBeUndefined();
    let shown = 0;
    instance.serving({ port: 4242, uiPort: 4243 }, () => shown++);
    const serving = readRecord(instanceFile(home))?.record;
    expect(serving).toMatchObject({ pid: process.pid, port: 4242, uiPort: 4243 });
    // A second start asks it to show itself, with a real signal.
    expect(askToShow(serving!)).toBe(true);
    await expect.poll(() => shown).toBe(1);
    // Not a process that merely has its pid.
    expect(askToShow({ ...serving!, ...(await deadProcess()) })).toBe(false);
    instance.release();
    expect(existsSync(instanceFile(home))).toBe(false);
  });

  it('hands over to a live DiffTray: its record is left as it was', async () => {
    const home = difftrayHomeDir();
    const record = liveRecord(difftray.runtime.native.port, 1234);
    createRecord(instanceFile(home), record);
    cleanups.push(() => removeOwnRecord(instanceFile(home)));
    const before = readFileSync(instanceFile(home), 'utf8');
    expect(await claimInstance({ home, shell: 'desktop' })).toEqual({ kind: 'running', record });
    expect(readFileSync(instanceFile(home), 'utf8')).toBe(before);
  });

  it('removes the record of a DiffTray that crashed, and claims the home', async () => {
    const home = tempHome();
    createRecord(instanceFile(home), { ...liveRecord(await closedPort()), ...(await deadProcess()) });
    const claim = await claimInstance({ home, shell: 'headless' });
    expect(claim.kind).toBe('claimed');
    if (claim.kind === 'claimed') claimed(claim.instance);
    expect(readRecord(instanceFile(home))?.record?.pid).toBe(process.pid);
  });

  it('claims a home whose record is garbage', async () => {
    const home = tempHome();
    createRecord(instanceFile(home), ownRecord('headless'));
    writeFileSync(instanceFile(home), '{"half":');
    const claim = await claimInstance({ home, shell: 'headless' });
    expect(claim.kind).toBe('claimed');
    if (claim.kind === 'claimed') claimed(claim.instance);
  });

  it('waits for a DiffTray that is starting: hands over once it serves, says so if it never does', async () => {
    const home = difftrayHomeDir();
    const file = instanceFile(home);
    createRecord(file, liveRecord(undefined));
    cleanups.push(() => removeOwnRecord(file));
    expect((await claimInstance({ home, shell: 'headless', waitMs: 300 })).kind).toBe('starting');

    const port = difftray.runtime.native.port;
    const claiming = claimInstance({ home, shell: 'headless', waitMs: 10_000 });
    setTimeout(() => updateRecord(file, liveRecord(port, 4321)), 200);
    expect(await claiming).toMatchObject({ kind: 'running', record: { port, uiPort: 4321 } });
  });

  it('of two starts at once, one claims the home and the other waits for it', async () => {
    const home = tempHome();
    const claims = await Promise.all([
      claimInstance({ home, shell: 'headless', waitMs: 300 }),
      claimInstance({ home, shell: 'desktop', waitMs: 300 }),
    ]);
    for (const claim of claims) if (claim.kind === 'claimed') claimed(claim.instance);
    expect(claims.map((claim) => claim.kind).sort()).toEqual(['claimed', 'starting']);
  });
});

describe('secondStart', () => {
  const record: InstanceRecord = {
    pid: 4321,
    startedAt: '2026-11-28T08:30:12.345Z',
    shell: 'headless',
    port: 5000,
    uiPort: 5001,
  };
  const desktop: InstanceRecord = {
    pid: 99,
    startedAt: '2026-11-28T09:00:00.000Z',
    shell: 'desktop',
    port: 7,
  };
  const running = (found: InstanceRecord, shown: boolean, newInstance = false) => {
    const asked: InstanceRecord[] = [];
    const said = secondStart(
      { kind: 'running', record: found },
      { newInstance, show: (r) => (asked.push(r), shown) },
    );
    return { said, asked };
  };

  it('names the running DiffTray', () => {
    expect(describeInstance(record)).toBe('DiffTray (headless, pid 4321, started 2026-11-28 08:30:12 UTC)');
    expect(describeInstance({ ...desktop, startedAt: 'garbled' })).toBe('DiffTray (the desktop app, pid 99)');
  });

  it('hands over to a headless DiffTray: it opens its UI, the address is printed without its token', () => {
    const { said, asked } = running(record, true);
    expect(asked).toEqual([record]);
    expect(said).toEqual({
      lines: [
        'DiffTray (headless, pid 4321, started 2026-11-28 08:30:12 UTC) is already running; this start hands over to it.',
        'Its UI, http://127.0.0.1:5001/, is opened in your browser; the address with its token is on the terminal that started it.',
      ],
      exitCode: 0,
    });
    expect(running(record, false).said.lines[1]).toBe(
      'Its UI, http://127.0.0.1:5001/, opens with `difftray open`; the address with its token is on the terminal that started it.',
    );
  });

  it('hands over to the desktop app: its window', () => {
    const { said } = running(desktop, true);
    expect(said.exitCode).toBe(0);
    expect(said.lines).toEqual([
      'DiffTray (the desktop app, pid 99, started 2026-11-28 09:00:00 UTC) is already running; this start hands over to it.',
      'Its window is shown.',
    ]);
    expect(running(desktop, false).said.lines[1]).toBe(
      'Open its window from the tray icon, or with `difftray open`.',
    );
    expect(secondDesktopStart(desktop, false)).toEqual(said);
    expect(secondDesktopStart(undefined, false)).toEqual({
      lines: ['The DiffTray desktop app is already running; its window is shown.'],
      exitCode: 0,
    });
  });

  it('refuses --new-instance, and a DiffTray that is still starting, with exit 1 and without asking it', () => {
    const { said, asked } = running(record, true, true);
    expect(said.exitCode).toBe(1);
    expect(asked).toEqual([]);
    expect(said.lines.join('\n')).toBe(
      '--new-instance refused: DiffTray (headless, pid 4321, started 2026-11-28 08:30:12 UTC) is running and holds its lock files.\n' +
        'Stop it first, or start without --new-instance to use it.',
    );
    expect(secondDesktopStart(undefined, true).exitCode).toBe(1);
    const starting = secondStart(
      { kind: 'starting', record },
      { newInstance: false, show: () => expect.fail('a starting DiffTray is not asked') },
    );
    expect(starting.exitCode).toBe(1);
    expect(starting.lines[0]).toContain('is still starting');
  });

  it('the Electron lock carries whether the running app should show its window', () => {
    expect(handOverWanted(electronHandOver(false))).toBe(true);
    expect(handOverWanted(electronHandOver(true))).toBe(false);
    // An older app's start passes nothing: it wants the window.
    expect(handOverWanted(undefined)).toBe(true);
  });
});
