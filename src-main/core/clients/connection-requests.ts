/**
 * Connection prompts: a client that sends no token (the real Clio CLI) waits here until the person
 * answers "Allow once", "Always allow this program" or "Deny"; unanswered, it is denied when its time is
 * up. A program that keeps connecting is held back (connection-backoff.ts) rather than prompted again and
 * again. The programs allowed always are kept here too, by their whole identity (program-identity.ts),
 * and written back through `save` (settings.json). No sockets: the bridge identifies the peer and asks;
 * it gets a decision back.
 */
import type {
  ConnectionAnswer,
  ConnectionRequest,
  PeerIdentification,
  TrustedProgram,
} from '../../../shared/app-api';
import { trustedProgramKey } from '../../../shared/app-api';
import { ConnectionBackoff, type BackoffOptions } from './connection-backoff';
import { CONNECTION_PROMPT_TIMEOUT_MS, MAX_CONNECTION_REQUESTS, MAX_TRUSTED_PROGRAMS } from '../limits';

/** Who is asking, as the bridge found out. */
export interface ConnectionPeer {
  name: string;
  protocol: string;
  identifiedBy: PeerIdentification;
  pid?: number;
  executable?: string;
  script?: string;
  cwd?: string;
  /** The whole command line, and the environment that changes what runs (peer-process.ts). */
  argv?: string[];
  environment?: Record<string, string>;
}

/** 'timeout': nobody answered in time; 'gone': the client left (or the app closes) first. */
export type ConnectionDecision = 'once' | 'always' | 'deny' | 'timeout' | 'gone';

export interface PendingConnection {
  readonly request: ConnectionRequest;
  readonly decision: Promise<ConnectionDecision>;
  /** The client left: the prompt goes away. */
  cancel(): void;
}

export class ConnectionRequestError extends Error {}

export interface ConnectionRequestsOptions {
  /** Programs remembered from settings.json. */
  trusted?: ReadonlyArray<Omit<TrustedProgram, 'key'>>;
  /** Writes the trusted programs back; throws if it cannot (the answer is then refused). */
  save?: (programs: ReadonlyArray<Omit<TrustedProgram, 'key'>>) => void;
  /** How long a prompt waits (CONNECTION_PROMPT_TIMEOUT_MS). */
  timeoutMs?: number;
  now?: () => number;
  /** The back-off's times (CONNECTION_BACKOFF_BASE_MS...); tests shorten them. */
  backoff?: Omit<BackoffOptions, 'now'>;
}

interface Waiting {
  request: ConnectionRequest;
  peer: ConnectionPeer;
  settle: (decision: ConnectionDecision) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class ConnectionRequests {
  private readonly waiting = new Map<string, Waiting>();
  private trusted: TrustedProgram[];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly backoff: ConnectionBackoff;

  constructor(private readonly options: ConnectionRequestsOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? CONNECTION_PROMPT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
    this.backoff = new ConnectionBackoff({ ...options.backoff, now: this.now });
    this.trusted = dedupe((options.trusted ?? []).map(withKey)).slice(0, MAX_TRUSTED_PROGRAMS);
  }

  /** The prompts waiting, oldest first. */
  list(): ConnectionRequest[] {
    return [...this.waiting.values()].map(({ request }) => ({ ...request }));
  }

  trustedPrograms(): TrustedProgram[] {
    return this.trusted.map((program) => ({ ...program }));
  }

  /**
   * Whether the person allowed this program always. A peer identified by its process matches only by
   * executable, whole command line and run-changing environment, all read in full; one identified by
   * name only matches a by-name entry.
   */
  isTrusted(peer: ConnectionPeer): boolean {
    const program = programOf(peer);
    if (!program) return false;
    const key = trustedProgramKey(program);
    return this.trusted.some((known) => known.key === key);
  }

  /**
   * Shows the prompt; refused at once, without one, when too many already wait, when one for this
   * program waits, when the person denied it lately, or while it is held back after unanswered prompts.
   */
  ask(peer: ConnectionPeer): PendingConnection {
    if (this.waiting.size >= MAX_CONNECTION_REQUESTS) {
      throw new ConnectionRequestError(
        `${MAX_CONNECTION_REQUESTS} connections already wait for the person's answer; try again later`,
      );
    }
    const held = backoffKey(peer);
    const refusal = this.backoff.refusal(held);
    if (refusal !== undefined) throw new ConnectionRequestError(refusal);
    this.backoff.asked(held);
    const askedAt = this.now();
    const request: ConnectionRequest = {
      id: `connect-${this.nextId++}`,
      name: peer.name,
      protocol: peer.protocol,
      identifiedBy: peer.identifiedBy,
      ...(peer.pid !== undefined && { pid: peer.pid }),
      ...(peer.executable !== undefined && { executable: peer.executable }),
      ...(peer.script !== undefined && { script: peer.script }),
      ...(peer.cwd !== undefined && { cwd: peer.cwd }),
      ...(peer.argv !== undefined && { argv: [...peer.argv] }),
      ...(peer.environment !== undefined && { environment: { ...peer.environment } }),
      canTrustAlways: programOf(peer) !== undefined,
      askedAt,
      expiresAt: askedAt + this.timeoutMs,
    };
    let settle!: (decision: ConnectionDecision) => void;
    const decision = new Promise<ConnectionDecision>((resolve) => (settle = resolve));
    const timer = setTimeout(() => this.settle(request.id, 'timeout'), this.timeoutMs);
    timer.unref?.();
    this.waiting.set(request.id, { request, peer, settle, timer });
    this.changed();
    return { request: { ...request }, decision, cancel: () => this.settle(request.id, 'gone') };
  }

  /** The person's answer. "always" remembers the program first; if that cannot be saved, nothing happens. */
  answer(requestId: string, answer: ConnectionAnswer): void {
    const entry = this.waiting.get(requestId);
    if (!entry) throw new ConnectionRequestError('This connection request is no longer waiting');
    if (answer === 'always') {
      const program = programOf(entry.peer);
      if (!program) {
        throw new ConnectionRequestError(
          "This program's executable, command line or environment could not be read in full: allow it once",
        );
      }
      this.remember(program);
    }
    this.settle(requestId, answer);
  }

  /** Forgets a program: its next connection is prompted again. */
  revoke(key: string): void {
    const next = this.trusted.filter((program) => program.key !== key);
    if (next.length === this.trusted.length) throw new ConnectionRequestError('No such trusted program');
    this.options.save?.(next.map(withoutKey));
    this.trusted = next;
    this.changed();
  }

  /** Every prompt ends (the app is closing). */
  close(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, 'gone');
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private remember(program: Omit<TrustedProgram, 'key'>): void {
    const entry = withKey(program);
    if (this.trusted.some((known) => known.key === entry.key)) return;
    if (this.trusted.length >= MAX_TRUSTED_PROGRAMS) {
      throw new ConnectionRequestError(
        `${MAX_TRUSTED_PROGRAMS} programs are allowed already; revoke one under Connections first`,
      );
    }
    const next = [...this.trusted, entry];
    this.options.save?.(next.map(withoutKey));
    this.trusted = next;
  }

  private settle(requestId: string, decision: ConnectionDecision): void {
    const entry = this.waiting.get(requestId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(requestId);
    const how =
      decision === 'once' || decision === 'always'
        ? 'allowed'
        : decision === 'deny'
          ? 'denied'
          : 'unanswered';
    this.backoff.ended(backoffKey(entry.peer), how);
    entry.settle(decision);
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * What "this program" is: its executable, whole command line and run-changing environment for a peer
 * identified by its process; the name it gave for one identified by name. A process any of whose three
 * could not be read in full is no program to trust: it is asked each time.
 */
function programOf(peer: ConnectionPeer): Omit<TrustedProgram, 'key'> | undefined {
  if (peer.identifiedBy === 'name') return { name: peer.name };
  if (peer.executable === undefined || peer.argv === undefined || peer.environment === undefined) {
    return undefined;
  }
  return {
    name: peer.name,
    executable: peer.executable,
    ...(peer.script !== undefined && { script: peer.script }),
    argv: [...peer.argv],
    environment: { ...peer.environment },
  };
}

/**
 * Whom the back-off holds: the program as a person would name it (executable and script, or the name
 * given), not its whole command line, which a flooding program could vary at will.
 */
function backoffKey(peer: ConnectionPeer): string {
  if (peer.identifiedBy === 'name' || peer.executable === undefined) return `name:${peer.name}`;
  return `exe:${peer.executable}\0${peer.script ?? ''}`;
}

function withKey(program: Omit<TrustedProgram, 'key'>): TrustedProgram {
  return { key: trustedProgramKey(program), ...program };
}

function withoutKey({ key: _key, ...program }: TrustedProgram): Omit<TrustedProgram, 'key'> {
  return program;
}

function dedupe(programs: TrustedProgram[]): TrustedProgram[] {
  const seen = new Set<string>();
  return programs.filter((program) => !seen.has(program.key) && seen.add(program.key));
}
