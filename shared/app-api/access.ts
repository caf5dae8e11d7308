/**
 * Who may connect beside the lock-file token, as the app API shows it: clients without a token waiting
 * for the person's answer and the programs always allowed (connection prompts), and agents on other
 * hosts paired with a code (pairing).
 */

// Connection prompts: a client that sends no token (the real Clio CLI) waits until the person allows it.

/**
 * How a waiting client is known. 'process': through the loopback socket's owner (Linux /proc): its pid,
 * executable and working folder are facts. 'name': the platform does not tell (macOS, Windows), so only
 * the name the client gave, which any program could claim.
 */
export type PeerIdentification = 'process' | 'name';

/** A connection without a token, waiting for the person's answer (AppApi.answerConnectionRequest). */
export interface ConnectionRequest {
  id: string;
  /** The name the client gave (its protocol's, e.g. "Clio", unless it named itself). */
  name: string;
  protocol: string;
  identifiedBy: PeerIdentification;
  pid?: number;
  /** The program's executable (/proc/<pid>/exe). */
  executable?: string;
  /** For an interpreter (node, python...): the script it runs, which is what "this program" means. */
  script?: string;
  /** Where the program runs (/proc/<pid>/cwd), e.g. the project an agent works on. */
  cwd?: string;
  /** Its whole command line (/proc/<pid>/cmdline). */
  argv?: string[];
  /** The variables of its environment that change what it runs (NODE_OPTIONS, LD_PRELOAD...), if any. */
  environment?: Record<string, string>;
  /**
   * Whether "Always allow this program" can be given: not when its executable, command line or
   * environment could not be read in full (it is asked each time then).
   */
  canTrustAlways: boolean;
  /** When the request arrived, and when it is closed unanswered (ms since the epoch). */
  askedAt: number;
  expiresAt: number;
}

export type ConnectionAnswer = 'once' | 'always' | 'deny';

/**
 * A program allowed to connect without a token. Where the process was identified: by its executable, its
 * whole command line and the environment that changes what it runs (`node -r other.js script.js` or
 * NODE_OPTIONS=--require... is another program); by name only where it could not be, which is weaker:
 * any program may give that name.
 */
export interface TrustedProgram {
  /** Identifies the entry for AppApi.revokeTrustedProgram. */
  key: string;
  name: string;
  executable?: string;
  /** For an interpreter: the script it runs (shown; argv holds it too). */
  script?: string;
  argv?: string[];
  environment?: Record<string, string>;
}

/**
 * The key of a trusted program: its executable, script (resolved), command line and run-changing
 * environment (sorted by name), or its name when identified by name. An entry remembered before command lines were (no argv)
 * has a key no process has: that program is asked again.
 */
export function trustedProgramKey(program: Omit<TrustedProgram, 'key'>): string {
  if (program.executable === undefined) return `name:${program.name}`;
  if (program.argv === undefined) return `exe:${program.executable}\0${program.script ?? ''}`;
  const environment = Object.entries(program.environment ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  // The script too: `node cli.js` in another folder runs another cli.js.
  return `run:${JSON.stringify([program.executable, program.script ?? null, program.argv, environment])}`;
}

/** Where a paired client's review comes from: its files are on that host, named as it named them. */
export interface RemoteOrigin {
  clientName: string;
}

/** An agent on another host, paired through "Pair a remote agent"; its token is never shown again. */
export interface PairedClientInfo {
  id: string;
  name: string;
  pairedAt: number;
  lastUsedAt?: number;
}

/** Pairing as the UI shows it: the code itself is only in startPairing's answer. */
export interface PairingState {
  /** A code is active until then. */
  codeExpiresAt?: number;
  /** Pairing is refused until then, after too many wrong codes. */
  lockedUntil?: number;
}

export interface PairingStarted {
  code: string;
  expiresAt: number;
  /** The native endpoint's port on this machine, the one to forward (`ssh -R <port>:127.0.0.1:<port>`). */
  port: number;
  /**
   * DiffTray's host key fingerprint (`SHA256:…`): `difftray pair` prints the key it pinned, and the two
   * must match (pairing trusts whoever answers first).
   */
  hostKeyFingerprint: string;
}
