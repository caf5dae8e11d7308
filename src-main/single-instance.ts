/**
 * One DiffTray per DiffTray home, desktop or headless alike: a start claims the instance record
 * (instance-file.ts) before it writes any lock file. When another DiffTray holds it, this start hands
 * over to it: asks it to show itself (SHOW_SIGNAL: the desktop app shows its window, a headless one
 * opens its UI in the person's browser, as `difftray open` has them do), prints who and where it is,
 * and exits 0; with `--new-instance` it is refused instead. A record is trusted only while its process
 * is the one that wrote it (pid and start time) and the program on its port proves it is that DiffTray
 * (the native handshake, bridge/native/endpoint-proof.ts: a nonce out, a proof under its lock file's
 * token back), so the record of a crashed DiffTray never blocks a start, nor hands it over to whatever
 * took the port since: it is removed and the start goes on.
 *
 * The headless UI's token is never handed over: any program running as this user, the agent under
 * review too, could start DiffTray a second time to learn it.
 */
import { isSameOwnProcess } from './core/clients/process-info';
import { provesNativeEndpoint } from './bridge/native/endpoint-proof';
import {
  createRecord,
  instanceFile,
  ownRecord,
  readRecord,
  removeOwnRecord,
  removeRecordIfUnchanged,
  updateRecord,
  type InstanceRecord,
  type InstanceShell,
} from './instance-file';
import { isRecord } from '../shared/is-record';

/** How long a start waits for another DiffTray that is still starting to serve. */
export const START_WAIT_MS = 30_000;
const POLL_MS = 100;

/** Sent by a second start to the running DiffTray: "show yourself" (SIGUSR1 is Node's debugger's). */
export const SHOW_SIGNAL = 'SIGUSR2';

/** The record this process holds: filled in once serving, removed when leaving (or at exit, whatever ends it). */
export class OwnInstance {
  private released = false;
  private readonly releaseAtExit = () => this.release();

  constructor(
    readonly file: string,
    private record: InstanceRecord,
  ) {
    process.once('exit', this.releaseAtExit);
  }

  /**
   * Says where this DiffTray answers (its native port, the headless UI's port), and from now on shows
   * itself when a second start asks (SHOW_SIGNAL).
   */
  serving(where: { port: number; uiPort?: number }, show: () => void): void {
    if (this.released) return;
    // Listening first: the signal's default action ends the process, and the port invites it.
    process.on(SHOW_SIGNAL, show);
    this.record = { ...this.record, ...where };
    updateRecord(this.file, this.record);
  }

  /** Removes the record, synchronously; idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    process.removeListener('exit', this.releaseAtExit);
    // The SHOW_SIGNAL listener stays: a late signal must not end the process mid-close.
    removeOwnRecord(this.file, this.record.pid);
  }
}

export type InstanceClaim =
  | { kind: 'claimed'; instance: OwnInstance }
  /** Another DiffTray serves for this home. */
  | { kind: 'running'; record: InstanceRecord }
  /** Another DiffTray is alive but has not served within the wait. */
  | { kind: 'starting'; record: InstanceRecord };

export interface ClaimOptions {
  /** The DiffTray home (difftrayHome(env)). */
  home: string;
  shell: InstanceShell;
  /** How long to wait for a DiffTray that is still starting; START_WAIT_MS by default. */
  waitMs?: number;
}

/** What a record says of its DiffTray now. */
export type RecordState = 'live' | 'starting' | 'stale';

/**
 * Live: its process is the one that wrote it, and the program on its port proves to be that DiffTray
 * (its native lock file, in `home`, names that process and port; the port answers the challenge with
 * that file's token). Starting: that process, not serving yet. Stale: anything else (gone, its pid
 * reused, its servers closed, its port taken by another program, not a record at all).
 */
export async function recordState(record: InstanceRecord | undefined, home: string): Promise<RecordState> {
  if (!record || !isSameOwnProcess(record.pid, record.processStart)) return 'stale';
  if (record.port === undefined) return 'starting';
  const { pid, processStart, port } = record;
  const proved = await provesNativeEndpoint({
    lockDir: home,
    port,
    pid,
    ...(processStart !== undefined && { processStart }),
  });
  return proved ? 'live' : 'stale';
}

/** Claims the home for this process, or says who holds it. Throws only when the home cannot be written. */
export async function claimInstance(options: ClaimOptions): Promise<InstanceClaim> {
  const file = instanceFile(options.home);
  const deadline = Date.now() + (options.waitMs ?? START_WAIT_MS);
  for (;;) {
    // Past the wait, only records changing under us all along are left: said, not looped on.
    if (Date.now() > deadline + START_WAIT_MS)
      throw new Error(`${file} keeps changing; is another DiffTray starting and stopping?`);
    const own = ownRecord(options.shell);
    if (createRecord(file, own)) return { kind: 'claimed', instance: new OwnInstance(file, own) };
    const found = readRecord(file);
    // Removed between the two looks (its DiffTray left): claim again.
    if (found === undefined) continue;
    const state = await recordState(found.record, options.home);
    if (state === 'live' && found.record) return { kind: 'running', record: found.record };
    if (state === 'stale') {
      removeRecordIfUnchanged(file, found.text);
    } else if (found.record) {
      if (Date.now() >= deadline) return { kind: 'starting', record: found.record };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** What a start that did not claim the home prints, and its exit code. */
export interface SecondStart {
  /** Lines for stdout (a hand-over) or stderr (a refusal). */
  lines: string[];
  exitCode: number;
}

export interface SecondStartOptions {
  /** `--new-instance`: a new DiffTray or none, never a hand-over. */
  newInstance: boolean;
  /** Asks the running DiffTray to show itself; false where it could not be asked (no signals: Windows). */
  show: (record: InstanceRecord) => boolean;
}

/** Prints what a second start says: a hand-over on stdout, a refusal on stderr. */
export function printSecondStart(said: SecondStart): void {
  for (const line of said.lines) (said.exitCode === 0 ? console.log : console.error)(line);
}

/** Hands over to the DiffTray found (or refuses to): what to print, and the exit code. */
export function secondStart(
  claim: Exclude<InstanceClaim, { kind: 'claimed' }>,
  options: SecondStartOptions,
): SecondStart {
  const { record } = claim;
  const who = describeInstance(record);
  if (claim.kind === 'starting') {
    return {
      lines: [
        `${who} is still starting and does not answer yet.`,
        'Try again once it has started, or stop it first.',
      ],
      exitCode: 1,
    };
  }
  if (options.newInstance) return newInstanceRefused(who);
  const shown = options.show(record);
  const handOver = `${who} is already running; this start hands over to it.`;
  if (record.shell === 'desktop') {
    return {
      lines: [
        handOver,
        shown ? 'Its window is shown.' : 'Open its window from the tray icon, or with `difftray open`.',
      ],
      exitCode: 0,
    };
  }
  const where = record.uiPort === undefined ? 'Its UI' : `Its UI, http://127.0.0.1:${record.uiPort}/,`;
  return {
    lines: [
      handOver,
      `${where} ${shown ? 'is opened in your browser' : 'opens with `difftray open`'}; the address with its token is on the terminal that started it.`,
    ],
    exitCode: 0,
  };
}

/** Asks the DiffTray of `record` to show itself, if its process is still the one that wrote it. */
export function askToShow(record: InstanceRecord): boolean {
  if (!isSameOwnProcess(record.pid, record.processStart)) return false;
  try {
    process.kill(record.pid, SHOW_SIGNAL);
    return true;
  } catch {
    // No such signal here (Windows), or the process just left.
    return false;
  }
}

/**
 * A desktop start that found Electron's own single-instance lock taken: another desktop app runs (its
 * record, if it has written it yet, says which). That app shows its window itself (Electron tells it),
 * unless this start asked for a new instance (electronHandOver says which, as the lock's data).
 */
export function secondDesktopStart(record: InstanceRecord | undefined, newInstance: boolean): SecondStart {
  if (record) return secondStart({ kind: 'running', record }, { newInstance, show: () => true });
  return newInstance
    ? newInstanceRefused('the DiffTray desktop app')
    : { lines: ['The DiffTray desktop app is already running; its window is shown.'], exitCode: 0 };
}

/** `--new-instance` while `who` runs: refused, since it holds the lock files a new one would write. */
function newInstanceRefused(who: string): SecondStart {
  return {
    lines: [
      `--new-instance refused: ${who} is running and holds its lock files.`,
      'Stop it first, or start without --new-instance to use it.',
    ],
    exitCode: 1,
  };
}

/** What a desktop start passes to the running app with Electron's single-instance lock. */
export function electronHandOver(newInstance: boolean): Record<string, unknown> {
  return { difftrayNewInstance: newInstance };
}

/** Whether the running app should show its window for a start that passed `data` (electronHandOver). */
export function handOverWanted(data: unknown): boolean {
  return !(isRecord(data) && data.difftrayNewInstance === true);
}

/** "DiffTray (headless, pid 1234, started 2026-11-28 08:30:12 UTC)". */
export function describeInstance(record: InstanceRecord): string {
  const shell = record.shell === 'desktop' ? 'the desktop app' : 'headless';
  const started = new Date(record.startedAt);
  const since = Number.isNaN(started.getTime())
    ? ''
    : `, started ${started.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return `DiffTray (${shell}, pid ${record.pid}${since})`;
}
