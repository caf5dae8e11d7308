/**
 * Drives test/support/clio-child-client.mjs: a Clio client without a token in a child process started in
 * a chosen folder, so the connection prompt can be checked to name that process (its pid and cwd).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { JsonMessage } from './json-socket';

export const CLIO_CHILD_SCRIPT = path.join(__dirname, 'clio-child-client.mjs');
/** Connects without a token N times in a row, each time leaving at the first answer or after a moment. */
export const CLIO_FLOOD_SCRIPT = path.join(__dirname, 'clio-flood-client.mjs');

export interface ClioChildOptions {
  clientName?: string;
  /** Lets a test run a copy of the client (another program). */
  script?: string;
  /** Node's own options before the script (`-r other.js`). */
  nodeArgs?: string[];
  /** Added to the environment (NODE_OPTIONS...). */
  env?: Record<string, string>;
  uid?: number;
  gid?: number;
}

export class ClioChild {
  readonly received: JsonMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiters = new Set<() => void>();

  private constructor(readonly child: ChildProcess) {
    let pending = '';
    let settleClosed!: (value: { code: number; reason: string }) => void;
    this.closed = new Promise((resolve) => (settleClosed = resolve));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const message = JSON.parse(pending.slice(0, end)) as JsonMessage;
        pending = pending.slice(end + 1);
        if (message.closed) settleClosed(message.closed as { code: number; reason: string });
        else this.received.push(message);
        for (const waiter of this.waiters) waiter();
      }
    });
  }

  /** Starts the client in `cwd` against `port`. */
  static start(port: number, cwd: string, options: ClioChildOptions = {}): ClioChild {
    const script = options.script ?? CLIO_CHILD_SCRIPT;
    // Another user cannot read a clone in a 0700 folder: it runs a bundled copy in a readable one.
    const runnable = options.uid === undefined ? script : readableBundle(script);
    const args = [...(options.nodeArgs ?? []), runnable];
    if (options.clientName) args.push(options.clientName);
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...options.env, CLIO_CHILD_PORT: String(port) },
      stdio: ['pipe', 'pipe', 'inherit'],
      ...(options.uid !== undefined && { uid: options.uid }),
      ...(options.gid !== undefined && { gid: options.gid }),
    });
    return new ClioChild(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(message: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs = 10_000): Promise<JsonMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(predicate);
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching message; received: ${JSON.stringify(this.received).slice(0, 500)}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  stop(): void {
    this.child.kill();
  }
}

/** `script` and what it imports (ws) bundled into one file another user can read (0755 folder, 0644 file). */
function readableBundle(script: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'difftray-child-'));
  chmodSync(dir, 0o755);
  const outfile = path.join(dir, `${path.basename(script, path.extname(script))}.cjs`);
  buildSync({
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    // ws tries these optional native helpers and does without them.
    external: ['bufferutil', 'utf-8-validate'],
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o644);
  return outfile;
}
