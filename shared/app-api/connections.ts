/**
 * The agents connected to DiffTray and who may connect: the clients (paused or not), the connection
 * prompts of clients without a token, the programs always allowed, and agents paired from other hosts.
 */
import { z } from 'zod';
import type { ClientProtocol } from '../client-protocols';
import { MAX_PATH_CHARS } from '../limits';
import type { PairingStarted } from './access';
import { answers, type CallSpec } from './call-spec';

/** A client whose reviews the person paused: its proposals pass through DiffTray at once, unreviewed. */
export interface PausedClient {
  key: string;
  name: string;
  protocol: ClientProtocol;
}

export interface ClientInfo {
  /** Unique per connection. */
  id: string;
  /** What the person sees, e.g. "Claude Code". */
  name: string;
  protocol: ClientProtocol;
  version?: string;
  pid?: number;
  /** The client's working folder, where it could be found out (e.g. from its pid). */
  workspace?: string;
  /**
   * The pid (and the working folder found from it) is what the client said, which DiffTray cannot check
   * (Copilot CLI's X-Copilot-PID header on a Unix socket): shown as claimed, not as a fact.
   */
  claimed?: true;
  /** The agent's own session id (Claude Code's `session_id`), when it gives one. */
  agentSession?: string;
  connectedAt: number;
  connected: boolean;
  /** The last status message the client sent, shown without interrupting a review. */
  status?: { text: string; at: number };
}

/** The calls of Connections and Settings' Clients: end or pause a client, answer prompts, pair. */
export const connectionCalls = {
  disconnectClient: {
    params: z.object({ clientId: z.string().min(1).max(200) }),
    result: answers<void>(),
  },
  /** Pauses (or resumes) reviews for a client, by its pause key (clientPauseKey). */
  setClientPaused: {
    params: z.object({ key: z.string().min(1).max(400), paused: z.boolean() }),
    result: answers<void>(),
  },
  /** Answers a connection prompt: allow this connection, allow this program from now on, or deny. */
  answerConnectionRequest: {
    params: z.object({
      requestId: z.string().min(1).max(200),
      answer: z.enum(['once', 'always', 'deny']),
    }),
    result: answers<void>(),
  },
  /** Forgets a program allowed with "Always allow this program": it is asked again next time. */
  revokeTrustedProgram: {
    params: z.object({
      key: z
        .string()
        .min(1)
        .max(3 * MAX_PATH_CHARS),
    }),
    result: answers<void>(),
  },
  /** "Pair a remote agent": a fresh 6-digit code (5 minutes, one use) and the port a tunnel forwards. */
  startPairing: {
    params: z.object({}),
    result: answers<PairingStarted>(),
  },
  cancelPairing: {
    params: z.object({}),
    result: answers<void>(),
  },
  /** Forgets a paired client: its token is refused from now on and its connections are closed. */
  revokePairedClient: {
    params: z.object({ id: z.string().min(1).max(200) }),
    result: answers<void>(),
  },
} satisfies Record<string, CallSpec>;
