/**
 * (s) search_workspace over a generated 20,000-file tree (400 folders of 50 files of about 1.5 KB, a
 * .gitignore at the top, the word searched for in 1 file of 100), asked over the native protocol
 * (a WebSocket client against the real endpoint: walk confined folder by folder, every file read
 * through its opened folder, .gitignore judged, the answer built and sent), raced against two floors
 * that do none of that safety work:
 * - `grep -rn -F` (one process; its start-up is in its time);
 * - a plain Node loop: readdir, readFileSync, indexOf, and the line number of each match.
 * Both floors search the same files (nothing in the tree is ignored). Literal search; then a regular
 * expression (matched in the worker thread) against `grep -rn -E`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { SEARCH_MAX_RESULTS } from '../shared/limits';
import { NATIVE_AUTH_HEADER } from '../shared/native-protocol';
import { AppCore } from '../src-main/core/app-core';
import { startNativeEndpoint } from '../src-main/bridge/native/endpoint';
import { makeTempDir } from '../test/support/temp';
import { figure } from './support/results';
import { interleave, since } from './support/stats';

const FOLDERS = 400;
const FILES_PER_FOLDER = 50;
const REPS = 7;
const NEEDLE = 'needleInTheTree';

function generate(root: string): number {
  let planted = 0;
  writeFileSync(path.join(root, '.gitignore'), '*.log\ndist/\n');
  for (let f = 0; f < FOLDERS; f++) {
    const folder = path.join(root, `pkg${Math.floor(f / 20)}`, `mod${f}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < FILES_PER_FOLDER; i++) {
      const lines: string[] = [];
      for (let l = 0; l < 40; l++)
        lines.push(`export const value${l} = compute(${f}, ${i}, ${l}); // line ${l}`);
      if ((f * FILES_PER_FOLDER + i) % 100 === 0) {
        lines[17] = `const found = ${NEEDLE}(${i});`;
        planted++;
      }
      writeFileSync(path.join(folder, `file${i}.ts`), `${lines.join('\n')}\n`);
    }
  }
  return planted;
}

/** The plain loop: every file read whole, the needle found with indexOf, its line counted. */
function nodeLoop(root: string, needle: string): number {
  let found = 0;
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) {
        const text = readFileSync(full, 'utf8');
        for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
          let line = 1;
          for (let nl = text.indexOf('\n'); nl !== -1 && nl < at; nl = text.indexOf('\n', nl + 1)) line++;
          if (line > 0) found++;
        }
      }
    }
  }
  return found;
}

class Client {
  private next = 1;
  private readonly waiting = new Map<string, (payload: Record<string, unknown>) => void>();
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        message_id: string;
        type: string;
        payload: Record<string, unknown>;
      };
      const done = this.waiting.get(message.message_id);
      if (!done) return;
      this.waiting.delete(message.message_id);
      if (message.type !== 'response') throw new Error(JSON.stringify(message.payload));
      done(message.payload);
    });
  }

  static open(port: number, token: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers: { [NATIVE_AUTH_HEADER]: token } });
      socket.once('open', () => resolve(new Client(socket)));
      socket.once('error', reject);
    });
  }

  request(command: string, payload: unknown): Promise<Record<string, unknown>> {
    const message_id = `b${this.next++}`;
    this.socket.send(
      JSON.stringify({ protocol_version: '1.0', message_id, type: 'request', command, payload }),
    );
    return new Promise((resolve) => this.waiting.set(message_id, resolve));
  }

  close(): void {
    this.socket.close();
  }
}

const temp = makeTempDir('search-bench');
try {
  const root = realpathSync(temp.dir);
  const tree = path.join(root, 'tree');
  mkdirSync(tree);
  const planted = generate(tree);
  const core = new AppCore([tree]);
  const endpoint = await startNativeEndpoint({ core, lockDir: path.join(root, 'locks') });
  const client = await Client.open(endpoint.port, endpoint.token);
  await client.request('hello', { client_name: 'bench' });

  const search = async (query: string, isRegex: boolean): Promise<number> => {
    const start = performance.now();
    const answer = await client.request('search_workspace', {
      query,
      isRegex,
      maxResults: SEARCH_MAX_RESULTS,
    });
    const ms = since(start);
    const results = (answer.results as unknown[]).length;
    if (results !== planted || answer.filesSearched !== FOLDERS * FILES_PER_FOLDER + 1) {
      throw new Error(
        `search_workspace found ${results} in ${String(answer.filesSearched)} files; expected ${planted}`,
      );
    }
    return ms;
  };
  const timed = (run: () => number) => async (): Promise<number> => {
    const start = performance.now();
    const found = run();
    const ms = since(start);
    if (found !== planted) throw new Error(`floor found ${found}; expected ${planted}`);
    return ms;
  };
  const grep = (flag: string, pattern: string) => () => {
    const out = spawnSync('grep', ['-rn', flag, pattern, tree], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.stdout.split('\n').filter((line) => line !== '').length;
  };

  execFileSync('grep', ['--version']);
  const [app, grepLiteral] = await interleave(REPS, () => search(NEEDLE, false), timed(grep('-F', NEEDLE)));
  figure('s', 'search_workspace, literal, 20,000 files', 'ms', app, 'grep -rn -F', grepLiteral, '< 1,000 ms');
  const [app2, loop] = await interleave(
    REPS,
    () => search(NEEDLE, false),
    timed(() => nodeLoop(tree, NEEDLE)),
  );
  figure(
    's',
    'search_workspace, literal, 20,000 files',
    'ms',
    app2,
    'Node readdir+readFile+indexOf',
    loop,
    '≤ 4×',
  );
  const regex = `${NEEDLE}\\(\\d+\\)`;
  const [app3, grepRegex] = await interleave(
    REPS,
    () => search(regex, true),
    timed(grep('-E', `${NEEDLE}\\([0-9]+\\)`)),
  );
  figure('s', 'search_workspace, regex, 20,000 files', 'ms', app3, 'grep -rn -E', grepRegex, '< 1,500 ms');

  client.close();
  await endpoint.close();
} finally {
  temp.cleanup();
}
