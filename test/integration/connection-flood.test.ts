/**
 * Attack: another local process opens 1,200 idle, unauthenticated connections to the Claude Code bridge
 * of the real headless app, started (as a desktop session may be) with a small open-files limit. The
 * connections beyond the per-peer cap are closed at once; the app keeps running; a real MCP client with
 * the lock file's token still connects, and the app still reads the file it proposes to change.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppApiClient } from '../fuzz/lib/drivers/app-api';
import type { Endpoints } from '../fuzz/lib/app-process';
import { BUILD_TIMEOUT_MS, buildMain } from '../support/build';
import { connectClaudeClient, type ClaudeTestClient } from '../support/claude-client';
import { startHeadlessProcess, type HeadlessProcess } from '../support/headless-process';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

/** Below what 1,200 connections need: without caps the app runs out of descriptors. */
const MAX_OPEN_FILES = 512;
const FLOOD = 1200;

let app: HeadlessProcess | undefined;
let attacker: ChildProcess | undefined;
let claude: ClaudeTestClient | undefined;
let api: AppApiClient | undefined;

afterEach(async () => {
  api?.close();
  await claude?.close().catch(() => {});
  attacker?.kill('SIGKILL');
  await app?.stop();
  app = attacker = claude = api = undefined;
});

/**
 * Holds `count` connections to `port` from a process of its own, opening a new one (after 50 ms) for each
 * the app closes, as a persistent attacker would; resolves once all have been attempted and answered.
 */
function flood(port: number, count: number): Promise<void> {
  const script = `
    const net = require('node:net');
    const [port, count] = process.argv.slice(1).map(Number);
    let answered = 0;
    const open = () => {
      const socket = net.connect(port, '127.0.0.1');
      let done = false;
      const settle = () => {
        if (done) return;
        done = true;
        if (++answered === count) console.log('flooded');
      };
      socket.on('connect', settle);
      socket.on('error', () => {});
      socket.on('close', () => { settle(); setTimeout(open, 50); });
    };
    for (let i = 0; i < count; i++) open();
    setInterval(() => {}, 60000);
  `;
  attacker = spawn(process.execPath, ['-e', script, String(port), String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    attacker!.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('flooded')) resolve();
    });
    attacker!.once('exit', (code) => reject(new Error(`the attacker exited (${code})`)));
  });
}

async function pendingFile(client: AppApiClient): Promise<string> {
  for (;;) {
    const snapshot = await client.snapshot();
    const review = snapshot.reviews.find((r) => r.state === 'pending');
    if (review) return review.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(process.platform === 'linux')('a flood of idle connections', () => {
  it('is capped per peer; the app lives on, Claude Code still connects and files are still read', async () => {
    app = await startHeadlessProcess('flood', { maxOpenFiles: MAX_OPEN_FILES });
    const lockDir = path.join(app.env.CLAUDE_CONFIG_DIR!, 'ide');
    const lockName = readdirSync(lockDir).find((name) => name.endsWith('.lock'))!;
    const lock = JSON.parse(readFileSync(path.join(lockDir, lockName), 'utf8')) as { authToken: string };
    const port = Number(lockName.replace('.lock', ''));

    await flood(port, FLOOD);
    // Let the app work through the connections the kernel queued for it.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(app.child.exitCode).toBeNull();

    // The attacker still holds its connections; a real client connects and proposes an edit.
    const file = path.join(app.workspace, 'notes.txt');
    writeFileSync(file, 'old line\n');
    claude = await connectClaudeClient(port, lock.authToken);
    void claude.openDiff(file, 'new line\n', 'flood').catch(() => {});
    const { port: uiPort, searchParams } = new URL(app.url);
    api = await AppApiClient.open({
      headless: { port: Number(uiPort), token: searchParams.get('token')! },
    } as unknown as Endpoints);
    const reviewId = await pendingFile(api);
    const [content] = (await api.call('getReviewContent', { reviewId })) as { baseText: string }[];
    expect(content!.baseText).toBe('old line\n');
    expect(app.child.exitCode).toBeNull();
    expect(app.output()).toMatch(/closed \d+ unauthenticated connection\(s\) over the limit/);
  }, 120_000);
});
