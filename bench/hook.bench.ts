/**
 * (h) The hook's cost on every tool call: `difftray hook <agent>` as an agent runs it (node
 * dist/main/cli.cjs, its JSON on stdin), raced against `node -e 0` started the same way with the same
 * stdin. CPU seconds (user + system) of the children, as bash's `times` counts them over a batch, so
 * the machine's other load does not count; batches interleaved. Goals (issue 25): DiffTray not running
 * ≤ 1.3×; a call DiffTray lets through without asking (a tool it does not review, the agent paused)
 * ≤ 1.5× (plus one loopback round trip, which the first step does not even need).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestRuntime } from '../test/support/test-runtime';
import { makeTempDir } from '../test/support/temp';
import { figure } from './support/results';

const BATCHES = 7;
const RUNS_PER_BATCH = 10;
const CLI = path.resolve('dist/main/cli.cjs');

const stdinOf = (tool_name: string, tool_input: Record<string, unknown>, cwd: string) =>
  JSON.stringify({ session_id: 'bench', cwd, hook_event_name: 'BeforeTool', tool_name, tool_input });

/** Children's CPU ms per run, for `runs` runs of `words` with `input` on stdin, in `env`. */
function cpuPerRun(words: string[], input: string, env: NodeJS.ProcessEnv, dir: string): number {
  const stdinFile = path.join(dir, `stdin-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(stdinFile, input);
  const command = words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `for i in $(seq ${RUNS_PER_BATCH}); do ${command} < '${stdinFile}' > /dev/null 2>&1; done; times`;
  const result = spawnSync('bash', ['-c', script], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bench batch failed: ${result.stderr}`);
  // `times` prints the shell's own user/sys, then its children's: "0m0.120s 0m0.030s".
  const children = result.stdout.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  return (((seconds[0] ?? 0) + (seconds[1] ?? 0)) * 1000) / RUNS_PER_BATCH;
}

function race(name: string, goal: string, input: string, env: NodeJS.ProcessEnv, dir: string): void {
  const hook: number[] = [];
  const floor: number[] = [];
  cpuPerRun([process.execPath, '-e', '0'], input, env, dir); // warm the file cache
  for (let batch = 0; batch < BATCHES; batch++) {
    hook.push(cpuPerRun([process.execPath, CLI, 'hook', 'gemini'], input, env, dir));
    floor.push(cpuPerRun([process.execPath, '-e', '0'], input, env, dir));
  }
  figure('h', name, 'CPU ms', hook, 'node -e 0', floor, goal);
}

const temp = makeTempDir('hook-bench');
try {
  const nowhere = path.join(temp.dir, 'no-difftray');
  mkdirSync(nowhere, { recursive: true });
  const edit = (cwd: string) =>
    stdinOf('replace', { file_path: 'notes.txt', old_string: 'a', new_string: 'b' }, cwd);
  race(
    'hook, DiffTray not running',
    '≤ 1.3×',
    edit(temp.dir),
    { ...process.env, DIFFTRAY_HOME: nowhere },
    temp.dir,
  );

  // A real DiffTray (core and its native endpoint, in this process) for the calls it lets through.
  const t = await startTestRuntime();
  try {
    const env = { ...process.env, DIFFTRAY_HOME: path.join(t.home, '.difftray') };
    race(
      'hook, a tool not under review',
      '≤ 1.5× (+ 1 round trip)',
      stdinOf('read_file', { file_path: 'notes.txt' }, t.workspace),
      env,
      temp.dir,
    );
    // As Connections' pause does, once the agent's hook was listed.
    t.runtime.core.queue.setPaused({ protocol: 'gemini-hooks', name: 'Gemini CLI' }, true);
    race('hook, the agent paused', '≤ 1.5× (+ 1 round trip)', edit(t.workspace), env, temp.dir);
  } finally {
    await t.close();
  }
} finally {
  temp.cleanup();
}
