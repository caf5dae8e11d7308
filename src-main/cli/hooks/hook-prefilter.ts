/**
 * The first step of every `difftray hook <agent>`: it runs on each tool call of every agent, so it
 * settles in a few milliseconds what needs neither DiffTray nor the protocol client — another event, a
 * tool DiffTray does not review, an after-tool hook with no note kept, DiffTray not running, the agent
 * paused — and prints nothing for those. Only a call DiffTray must review loads the rest (hook.cjs).
 * Plain Node and plain data only: no schema library, no WebSocket (bench/hook.bench.ts keeps it lean).
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { HOOK_TABLES, hookStep, isReviewedTool } from '../../../shared/hooks/hook-tables';
import { difftrayHome } from '../../core/settings/difftray-home';
import { HOOK_AGENT_IDENTITIES, type HookAgentName } from './hook-agents';

/** Lock files and the pauses file are a few hundred bytes. */
const MAX_SMALL_FILE_BYTES = 64 * 1024;

export type Prefiltered =
  /** Nothing to print; `why` (when set) goes to stderr as the reason no decision was given. */
  | { kind: 'done'; why?: string }
  /** DiffTray must see this call: the full hook runs on the parsed stdin. */
  | { kind: 'review'; stdin: unknown };

export function prefilterHook(
  agent: HookAgentName,
  event: string | undefined,
  stdinText: string,
  env: NodeJS.ProcessEnv,
): Prefiltered {
  let stdin: unknown;
  try {
    stdin = JSON.parse(stdinText);
  } catch {
    return { kind: 'done', why: 'the hook input on stdin is not JSON' };
  }
  const table = HOOK_TABLES[agent];
  const step = hookStep(table, stdin, event);
  if (step === 'ignore') return { kind: 'done' };
  if ((step === 'before' || step === 'after' || step === 'touch') && !isReviewedTool(table, stdin)) {
    return { kind: 'done' };
  }
  const home = difftrayHome(env);
  if (step === 'after')
    return hasEntries(path.join(home, 'hook-notes')) ? { kind: 'review', stdin } : { kind: 'done' };
  if (!mayBeRunning(home)) return { kind: 'done', why: `DiffTray is not running (no lock file in ${home})` };
  const { protocol, clientName } = HOOK_AGENT_IDENTITIES[agent];
  if (pausedKeys(home).includes(`${protocol}:${clientName}`)) {
    return { kind: 'done', why: `reviews from ${clientName} are paused in DiffTray` };
  }
  if (step === 'end' && followsNothing(home, clientName, stdin)) return { kind: 'done' };
  return { kind: 'review', stdin };
}

/**
 * The end of a turn DiffTray follows no file of (turns.json, mirrored by core/turns/turns-file.ts):
 * nothing to review. Unsure (no file, one from a DiffTray that is gone, no session id), DiffTray is asked.
 */
function followsNothing(home: string, clientName: string, stdin: unknown): boolean {
  const file = readJson(path.join(home, 'turns.json'));
  if (!isAlive(numberField(file, 'pid'))) return false;
  const following =
    typeof file === 'object' && file !== null ? (file as { following?: unknown }).following : undefined;
  if (!Array.isArray(following)) return false;
  const fields = typeof stdin === 'object' && stdin !== null ? (stdin as Record<string, unknown>) : {};
  const sessionId = fields.session_id ?? fields.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '') return false;
  // turnKey (core/turns/agent-turns.ts), spelt out: the prefilter loads nothing of core.
  return !following.includes(`${clientName}\u0000${sessionId}`);
}

function hasEntries(folder: string): boolean {
  try {
    return readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}

/**
 * A DiffTray may answer: a lock file whose process is alive, or a paired DiffTray on another machine
 * (paired.json). The full hook still checks the lock file and proves the server before sending anything.
 */
function mayBeRunning(home: string): boolean {
  let names: string[];
  try {
    names = readdirSync(home);
  } catch {
    return false;
  }
  if (names.includes('paired.json')) return true;
  return names.some((name) => name.endsWith('.lock') && isAlive(pidIn(path.join(home, name))));
}

function pausedKeys(home: string): string[] {
  const file = readJson(path.join(home, 'hook-pauses.json'));
  if (!isAlive(numberField(file, 'pid'))) return [];
  const paused =
    typeof file === 'object' && file !== null ? (file as { paused?: unknown }).paused : undefined;
  return Array.isArray(paused) ? paused.filter((key): key is string => typeof key === 'string') : [];
}

function pidIn(file: string): number | undefined {
  return numberField(readJson(file), 'pid');
}

function numberField(value: unknown, field: string): number | undefined {
  const found =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
  return typeof found === 'number' && Number.isInteger(found) && found > 0 ? found : undefined;
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's. Anything else: gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A small regular file's JSON, or undefined; never waits on a FIFO, never follows a link. */
function readJson(file: string): unknown {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_SMALL_FILE_BYTES) return undefined;
    const buffer = Buffer.alloc(stat.size);
    const read = readSync(fd, buffer, 0, stat.size, 0);
    return JSON.parse(buffer.subarray(0, read).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
