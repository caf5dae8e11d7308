/**
 * How often a program without a token may put a prompt in front of the person. A program that keeps
 * connecting (585 prompts a minute in one trial) must not flood the window: one prompt per program at a
 * time; after one nobody answered (or whose client left first) the next waits, doubling each time; a
 * program the person denied is refused without asking for a while; and all programs together get a few
 * prompts a minute. Kept in memory only, bounded by count.
 */
import {
  CONNECTION_BACKOFF_BASE_MS,
  CONNECTION_BACKOFF_MAX_MS,
  CONNECTION_DENIED_MS,
  MAX_CONNECTION_PROMPTS_PER_MINUTE,
} from '../limits';

/** Programs remembered at once; the oldest is forgotten first (it then starts afresh). */
const MAX_REMEMBERED = 256;
const MINUTE_MS = 60_000;

export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  deniedMs?: number;
  perMinute?: number;
  now: () => number;
}

interface ProgramRecord {
  waiting: boolean;
  /** Prompts in a row that ended unanswered. */
  unanswered: number;
  /** No prompt before then. */
  notBefore: number;
  deniedUntil: number;
}

export class ConnectionBackoff {
  private readonly programs = new Map<string, ProgramRecord>();
  private readonly shownAt: number[] = [];
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly deniedMs: number;
  private readonly perMinute: number;

  constructor(private readonly options: BackoffOptions) {
    this.baseMs = options.baseMs ?? CONNECTION_BACKOFF_BASE_MS;
    this.maxMs = options.maxMs ?? CONNECTION_BACKOFF_MAX_MS;
    this.deniedMs = options.deniedMs ?? CONNECTION_DENIED_MS;
    this.perMinute = options.perMinute ?? MAX_CONNECTION_PROMPTS_PER_MINUTE;
  }

  /** Why `program` may not be asked about now, in words for the client; undefined when it may. */
  refusal(program: string): string | undefined {
    const now = this.options.now();
    const record = this.programs.get(program);
    if (record?.waiting) return 'DiffTray already asks the person about this program; wait for that answer';
    if (record && record.deniedUntil > now) {
      return `The person denied this program in DiffTray; it is refused for ${inWords(record.deniedUntil - now)}`;
    }
    if (record && record.notBefore > now) {
      return `DiffTray asked about this program recently and got no answer; try again in ${inWords(record.notBefore - now)}`;
    }
    while (this.shownAt.length > 0 && this.shownAt[0]! <= now - MINUTE_MS) this.shownAt.shift();
    if (this.shownAt.length >= this.perMinute) {
      return `${this.perMinute} connection prompts were shown in the last minute; try again in ${inWords(this.shownAt[0]! + MINUTE_MS - now)}`;
    }
    return undefined;
  }

  /** A prompt about `program` is shown now. */
  asked(program: string): void {
    this.shownAt.push(this.options.now());
    const record = this.record(program);
    record.waiting = true;
  }

  /** How its prompt ended: an answer resets the back-off; a denial is remembered; silence doubles the wait. */
  ended(program: string, how: 'allowed' | 'denied' | 'unanswered'): void {
    const now = this.options.now();
    const record = this.record(program);
    record.waiting = false;
    if (how === 'allowed') {
      this.programs.delete(program);
    } else if (how === 'denied') {
      record.deniedUntil = now + this.deniedMs;
      record.unanswered = 0;
    } else {
      record.unanswered += 1;
      const wait = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(record.unanswered - 1, 30));
      record.notBefore = now + wait;
    }
  }

  private record(program: string): ProgramRecord {
    let record = this.programs.get(program);
    if (record) {
      // Most recently used last, so the oldest is the first forgotten.
      this.programs.delete(program);
    } else {
      record = { waiting: false, unanswered: 0, notBefore: 0, deniedUntil: 0 };
      this.forgetOldest();
    }
    this.programs.set(program, record);
    return record;
  }

  /** Keeps MAX_REMEMBERED programs at most, never one whose prompt is waiting. */
  private forgetOldest(): void {
    if (this.programs.size < MAX_REMEMBERED) return;
    for (const [program, record] of this.programs) {
      if (record.waiting) continue;
      this.programs.delete(program);
      return;
    }
  }
}

function inWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}
