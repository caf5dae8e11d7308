/** The bridge's gate and its behaviour on bad input, checked with raw WebSocket clients. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultEndpoints } from '../../src-main/bridge/endpoints';
import { startRuntime } from '../../src-main/runtime';
import { openSocket } from '../support/claude-client';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const CLAUDE_HEADER = 'x-claude-code-ide-authorization';

let t: TestRuntime;
beforeEach(async () => {
  t = await startTestRuntime();
});
afterEach(async () => {
  await t.close();
});

/** Attempts an upgrade with full control of the headers; resolves with the HTTP status or 101. */
function upgradeStatus(
  headers: Record<string, string>,
  protocol: string | undefined = 'mcp',
): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.runtime.bridge.port}`, protocol ? [protocol] : [], {
      headers,
    });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

const token = () => t.runtime.bridge.tokenFor('claude-ide');

describe('connection gate', () => {
  it('admits the right token', async () => {
    expect(await upgradeStatus({ [CLAUDE_HEADER]: token() })).toBe(101);
  });

  it('refuses a connection without a token', async () => {
    expect(await upgradeStatus({})).toBe(401);
  });

  it('refuses a wrong token, and a token meant for another protocol', async () => {
    expect(await upgradeStatus({ [CLAUDE_HEADER]: 'not-the-token' })).toBe(401);
    expect(await upgradeStatus({ [CLAUDE_HEADER]: t.runtime.bridge.tokenFor('nexus3-ide') })).toBe(401);
  });

  it('refuses any Origin header, even with the right token (a web page cannot drive the bridge)', async () => {
    expect(await upgradeStatus({ [CLAUDE_HEADER]: token(), Origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus({ [CLAUDE_HEADER]: token(), Origin: 'null' })).toBe(403);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect(
      await upgradeStatus({ [CLAUDE_HEADER]: token(), Host: `evil.example:${t.runtime.bridge.port}` }),
    ).toBe(403);
  });

  it('requires the mcp subprotocol', async () => {
    expect(await upgradeStatus({ [CLAUDE_HEADER]: token() }, 'chat')).toBe(400);
  });

  it('creates no client for refused connections', async () => {
    await upgradeStatus({});
    expect(t.runtime.core.snapshot().clients).toEqual([]);
  });
});

describe('bad frames', () => {
  it('a malformed JSON frame gets a parse error and the connection lives on', async () => {
    const socket = await openSocket(t.runtime.bridge.port, { [CLAUDE_HEADER]: token() });
    const reply = nextMessage(socket);
    socket.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(await reply).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: frame is not valid JSON text' },
    });

    const notRpc = nextMessage(socket);
    socket.send(JSON.stringify({ id: 7, hello: 'world' }));
    expect(await notRpc).toMatchObject({ id: 7, error: { code: -32600 } });

    const init = nextMessage(socket);
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'claude-code', version: '2.1.0' },
        },
      }),
    );
    expect(await init).toMatchObject({ id: 2, result: { serverInfo: { name: 'DiffTray' } } });

    const unknown = nextMessage(socket);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'no/such/method' }));
    expect(await unknown).toMatchObject({ id: 3, error: { code: -32601 } });
    socket.close();
  });
});

describe('lock files across instances', () => {
  it('a second instance keeps the first one’s lock file intact and removes only stale ones', async () => {
    // A stale lock file left by a crashed instance: its pid no longer runs.
    const deadPid = spawnSync('true').pid!;
    const stale = path.join(t.claudeLockDir, '1.lock');
    writeFileSync(
      stale,
      JSON.stringify({ pid: deadPid, workspaceFolders: [], ideName: 'DiffTray', transport: 'ws' }),
    );
    const firstLock = path.join(t.claudeLockDir, `${t.runtime.bridge.port}.lock`);
    const firstContent = readFileSync(firstLock, 'utf8');

    const env = {
      CLAUDE_CONFIG_DIR: path.join(t.home, '.claude'),
      DIFFTRAY_HOME: path.join(t.home, '.difftray'),
    };
    const second = await startRuntime({
      workspaces: [t.workspace],
      env,
      endpoints: defaultEndpoints(env, t.home, t.tmpDir),
      log: () => {},
    });
    try {
      expect(existsSync(stale)).toBe(false);
      expect(readFileSync(firstLock, 'utf8')).toBe(firstContent);
      expect(existsSync(path.join(t.claudeLockDir, `${second.bridge.port}.lock`))).toBe(true);
    } finally {
      await second.close();
    }
    expect(existsSync(path.join(t.claudeLockDir, `${second.bridge.port}.lock`))).toBe(false);
    expect(readFileSync(firstLock, 'utf8')).toBe(firstContent);
  });

  it('removes its own lock files on close', async () => {
    const locks = t.runtime.bridge.lockFilePaths();
    expect(locks).toHaveLength(3); // Claude Code, NEXUS3, OpenClaude
    await t.runtime.close();
    for (const lock of locks) expect(existsSync(lock)).toBe(false);
  });
});
