/**
 * An agent's turn as DiffTray follows it through the agent's hooks, for the turn review (issue 26,
 * docs/TURN-REVIEW.md): from the person's prompt to the agent's end of turn, each file the turn is about
 * to write is read once, before its first write ("before"); an edit the person decided in DiffTray during
 * the turn moves that file's "reviewed" text; at the end of the turn, each file whose text now differs
 * from what the person last saw (reviewed, else before) is put up for review.
 *
 * The texts are read by DiffTray itself, inside the workspace folders, and kept in its memory: nothing the
 * agent says or can write decides what a turn review compares against. Memory is bounded by bytes: past
 * the budget a file's earlier text is not kept, and its review says so rather than guess.
 */
import type { DiskSnapshot } from '../disk/disk-snapshot';
import { describeBytes, utf8ByteLength } from '../limits';

/** One agent session's turns are followed under this key: the hook's client name and the agent's session id. */
export type TurnKey = string;

export const turnKey = (clientName: string, agentSessionId: string): TurnKey =>
  `${clientName}\u0000${agentSessionId}`;

/** What the person last saw of a file, or why it is not known. */
export type Seen = { known: true; snapshot: DiskSnapshot } | { known: false; why: string };

export interface TurnFile {
  /** The file before the turn first wrote it. */
  before: Seen;
  /** Its text after the person last decided it in DiffTray (a per-edit review, a turn review). */
  reviewed?: DiskSnapshot;
}

export interface Turn {
  readonly key: TurnKey;
  /** The first line of the person's prompt, when the agent's hook gave it. */
  prompt: string | undefined;
  /** The agent's working folder. */
  cwd: string;
  readonly startedAt: number;
  /** Files by real path, in the order the turn first touched them. */
  readonly files: Map<string, TurnFile>;
  /** A turn review of this turn is waiting for the person. */
  reviewing: boolean;
  /**
   * The agent is in its turn: from its prompt (or first write) until an end of turn that needs no
   * review, or a turn review it is not asked to go on from. Meanwhile watch mode leaves the writes in
   * its folder to this turn (claimant).
   */
  open: boolean;
  /** When the agent's hooks last spoke of this turn. */
  lastActivity: number;
  /** A turn review of this turn ended: with `review: 'always'`, it is asked again only for new writes. */
  reviewedOnce: boolean;
}

/** All turns' kept texts together stay under this many UTF-8 bytes. */
export const TURN_TEXTS_MAX_BYTES = 64 * 1024 * 1024;
/** Turns followed at once; the one least recently begun is forgotten first. */
const MAX_TURNS = 64;
/**
 * A turn whose hooks have been silent this long no longer takes watch mode's changes: an agent killed
 * mid-turn must not keep its folder's writes from review. (Those writes stay unreviewed against their
 * baseline, so the next change of the file is reviewed with them.)
 */
export const TURN_CLAIM_MS = 30 * 60 * 1000;
/** Files one turn follows; past it, a file is not followed and the review says so. */
export const MAX_FILES_PER_TURN = 2_000;

const bytesOf = (snapshot: DiskSnapshot): number =>
  snapshot.exists && snapshot.kind === 'text' ? utf8ByteLength(snapshot.text) : 0;

const seenBytes = (seen: Seen): number => (seen.known ? bytesOf(seen.snapshot) : 0);

export class AgentTurns {
  private readonly turns = new Map<TurnKey, Turn>();
  private bytes = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBytes = TURN_TEXTS_MAX_BYTES,
  ) {}

  /** A new turn begins (the person's prompt): what the last one followed is let go. */
  begin(key: TurnKey, cwd: string, prompt: string | undefined): Turn {
    this.forget(key);
    while (this.turns.size >= MAX_TURNS) this.forget(this.turns.keys().next().value!);
    const turn: Turn = {
      key,
      prompt: firstLine(prompt),
      cwd,
      startedAt: this.now(),
      files: new Map(),
      reviewing: false,
      open: true,
      lastActivity: this.now(),
      reviewedOnce: false,
    };
    this.turns.set(key, turn);
    this.changed();
    return turn;
  }

  /**
   * The turn followed under `key`, marked as going on; one is begun (without a prompt) for an agent whose
   * prompt hook did not run.
   */
  turnOf(key: TurnKey, cwd: string): Turn {
    const turn = this.turns.get(key);
    if (!turn) return this.begin(key, cwd, undefined);
    turn.open = true;
    turn.lastActivity = this.now();
    return turn;
  }

  /**
   * The turn that takes a change watch mode saw in `file`: the most recently active open turn whose
   * agent works in a folder holding it.
   */
  claimant(file: string, isInside: (folder: string, file: string) => boolean): Turn | undefined {
    let found: Turn | undefined;
    const since = this.now() - TURN_CLAIM_MS;
    for (const turn of this.turns.values()) {
      if (!turn.open || turn.lastActivity < since || turn.cwd === '' || !isInside(turn.cwd, file)) continue;
      if (!found || turn.lastActivity > found.lastActivity) found = turn;
    }
    return found;
  }

  /** Called when the turns that follow files change (turns-file.ts mirrors them for the hooks). */
  onFollowingChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The keys of the turns whose end may need a review: those that follow a file, and open ones that
   * `mayFollow` says could yet (watch mode may hand them a change it has not looked at yet).
   */
  following(mayFollow: (turn: Turn) => boolean): TurnKey[] {
    return [...this.turns.values()]
      .filter((turn) => turn.files.size > 0 || (turn.open && mayFollow(turn)))
      .map((turn) => turn.key);
  }

  find(key: TurnKey): Turn | undefined {
    return this.turns.get(key);
  }

  /** Whether `file` is followed by the turn already (its before text was taken). */
  follows(turn: Turn, file: string): boolean {
    return turn.files.has(file);
  }

  /** Records `file`'s text before the turn's first write to it; a file seen before keeps its first. */
  noteBefore(turn: Turn, file: string, snapshot: DiskSnapshot | { unknown: string }): void {
    if (turn.files.has(file)) return;
    if (turn.files.size >= MAX_FILES_PER_TURN) return;
    const before: Seen =
      'unknown' in snapshot
        ? { known: false, why: snapshot.unknown }
        : this.fits(bytesOf(snapshot))
          ? { known: true, snapshot }
          : { known: false, why: `DiffTray's ${describeBytes(this.maxBytes)} for earlier texts were full` };
    this.bytes += seenBytes(before);
    turn.files.set(file, { before });
    if (turn.files.size === 1) this.changed();
  }

  /** The person decided `file` in DiffTray during the turn: `snapshot` is what it holds now by their word. */
  noteReviewed(turn: Turn, file: string, snapshot: DiskSnapshot): void {
    const followed = turn.files.get(file);
    if (!followed) return;
    if (followed.reviewed) this.bytes -= bytesOf(followed.reviewed);
    if (!this.fits(bytesOf(snapshot))) {
      // Not kept: the next review of this file compares with the text before the turn again.
      delete followed.reviewed;
      return;
    }
    followed.reviewed = snapshot;
    this.bytes += bytesOf(snapshot);
  }

  /** What the person last saw of `file` in this turn. */
  lastSeen(followed: TurnFile): Seen {
    return followed.reviewed ? { known: true, snapshot: followed.reviewed } : followed.before;
  }

  /** Lets go of the turn under `key` and its texts. */
  forget(key: TurnKey): void {
    const turn = this.turns.get(key);
    if (!turn) return;
    for (const followed of turn.files.values()) {
      this.bytes -= seenBytes(followed.before);
      if (followed.reviewed) this.bytes -= bytesOf(followed.reviewed);
    }
    this.turns.delete(key);
    if (turn.files.size > 0) this.changed();
  }

  /** UTF-8 bytes of the texts kept now (tests). */
  get keptBytes(): number {
    return this.bytes;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private fits(bytes: number): boolean {
    return this.bytes + bytes <= this.maxBytes;
  }
}

/** At most this many characters of the prompt's first line are kept, for the review's title. */
const MAX_PROMPT_CHARS = 120;

function firstLine(prompt: string | undefined): string | undefined {
  const line = prompt
    ?.split('\n')
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (line === undefined) return undefined;
  return line.length > MAX_PROMPT_CHARS ? `${line.slice(0, MAX_PROMPT_CHARS)}…` : line;
}
