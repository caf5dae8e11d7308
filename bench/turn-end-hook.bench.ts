/**
 * (t) What the end-of-turn hook adds to every turn (issue 26): `node dist/main/cli.cjs hook claude-code`
 * with Claude Code's Stop on stdin, wall time from spawn to exit, as the agent waits for it. DiffTray
 * running and following nothing of that session (the hook's first step reads turns.json and ends), raced
 * against the same hook with DiffTray not running (no lock file). Goal: ≤ 50 ms added (the median of the
 * paired differences). For information: a session DiffTray follows whose files did not change, the full
 * hook (protocol client, hello, `turn_end` answering nothing). Runs alternate; the runtime lives in this
 * process, so the children are awaited without blocking it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TURNS_FILE } from '../src-main/core/turns/turns-file';
import { NATIVE_HEADER, RawNative } from '../test/support/raw-native';
import { startTestRuntime, type TestRuntime } from '../test/support/test-runtime';
import { makeTempDir } from '../test/support/temp';
import { until } from '../test/support/wait';
import { figure } from './support/results';
import { median, since } from './support/stats';

const RUNS = 25;
const WARMUP = 3;
const CLI = path.resolve('dist/main/cli.cjs');

const stopInput = (sessionId: string, cwd: string) =>
  JSON.stringify({ hook_event_name: 'Stop', session_id: sessionId, stop_hook_active: false, cwd });

/**
 * One hook run's wall time in ms. It must end the turn silently (exit 0, nothing on stdout), and have
 * found DiffTray running or not as `running` says (the hook tells on stderr when it is not).
 */
function hookRun(input: string, env: NodeJS.ProcessEnv, cwd: string, running: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [CLI, 'hook', 'claude-code'], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = since(start);
      const foundRunning = !stderr.includes('DiffTray is not running');
      if (code !== 0 || stdout.trim() !== '' || foundRunning !== running) {
        reject(new Error(`the hook did not end the turn silently (exit ${code}): ${stdout}${stderr}`));
      } else resolve(ms);
    });
    child.stdin.end(input);
  });
}

/** `RUNS` runs of each, alternating, after `WARMUP` unrecorded pairs. */
async function race(
  app: () => Promise<number>,
  floor: () => Promise<number>,
): Promise<{ app: number[]; floor: number[]; added: number[] }> {
  const result = { app: [] as number[], floor: [] as number[], added: [] as number[] };
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const a = await app();
    const f = await floor();
    if (run < WARMUP) continue;
    result.app.push(a);
    result.floor.push(f);
    result.added.push(a - f);
  }
  return result;
}

function printAdded({ app, floor, added }: Awaited<ReturnType<typeof race>>, goal: string): void {
  console.log(
    `      added: median of paired differences ${median(added).toFixed(1)} ms ` +
      `(difference of medians ${(median(app) - median(floor)).toFixed(1)} ms)  goal ${goal}`,
  );
}

/** A session whose turn follows `file` (as Claude Code's pre-tool hook makes it), listed in turns.json. */
async function followedSession(t: TestRuntime, sessionId: string, file: string): Promise<void> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  try {
    for (const [command, payload] of [
      [
        'hello',
        {
          client_name: 'Claude Code',
          integration: 'claude-code-hooks',
          agent_session_id: sessionId,
          workspace: t.workspace,
          one_shot: true,
        },
      ],
      ['turn_begin', { prompt: 'Look, change nothing' }],
      ['turn_touch', { paths: [file], permission_mode: 'acceptEdits' }],
    ] as const) {
      const answer = await client.request(command, payload);
      if (answer.type !== 'response') throw new Error(`${command}: ${JSON.stringify(answer.payload)}`);
    }
  } finally {
    client.close();
  }
}

const temp = makeTempDir('turn-end-hook-bench');
const t = await startTestRuntime();
try {
  const nowhere = path.join(temp.dir, 'no-difftray');
  mkdirSync(nowhere, { recursive: true });
  const withoutDifftray = { ...process.env, DIFFTRAY_HOME: nowhere };
  const home = path.join(t.home, '.difftray');
  const withDifftray = { ...process.env, DIFFTRAY_HOME: home };
  const turnsFile = path.join(home, TURNS_FILE);
  if (!existsSync(turnsFile)) throw new Error(`${turnsFile} was not written`);

  const unfollowed = stopInput('bench-unfollowed', t.workspace);
  const nothing = await race(
    () => hookRun(unfollowed, withDifftray, t.workspace, true),
    () => hookRun(unfollowed, withoutDifftray, t.workspace, false),
  );
  figure(
    't',
    'end-of-turn hook, a session DiffTray follows nothing of',
    'ms',
    nothing.app,
    'DiffTray not running',
    nothing.floor,
    '≤ +50 ms',
  );
  printAdded(nothing, '≤ 50 ms');

  writeFileSync(path.join(t.workspace, 'kept.txt'), 'as it was\n');
  await followedSession(t, 'bench-listed', 'kept.txt');
  await until(
    () => readFileSync(turnsFile, 'utf8').includes('bench-listed') || undefined,
    'the session listed in turns.json',
  );
  const listed = stopInput('bench-listed', t.workspace);
  const unchanged = await race(
    () => hookRun(listed, withDifftray, t.workspace, true),
    () => hookRun(listed, withoutDifftray, t.workspace, false),
  );
  figure(
    't',
    'end-of-turn hook, a followed session that changed nothing (full hook, turn_end)',
    'ms',
    unchanged.app,
    'DiffTray not running',
    unchanged.floor,
    'for information',
  );
  printAdded(unchanged, '(for information)');
} finally {
  await t.close();
  temp.cleanup();
}
