/**
 * A client of DiffTray's native protocol: one WebSocket, requests matched to responses by message_id,
 * pushes handed to listeners, heartbeats sent at the interval the server asks for.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  AUTHENTICATE_COMMAND,
  CHALLENGE_COMMAND,
  challengeResponseSchema,
  ErrorCode,
  HANDSHAKE_PATH,
  NATIVE_MAX_MESSAGE_BYTES,
  NATIVE_PROTOCOL_VERSION,
  SERVER_SIGNATURE_LABEL,
  type AuthenticateResponse,
  type Envelope,
  type ErrorPayload,
} from '../../shared/native-protocol';
import { isServerProof, isSignedBy, newNonce } from '../core/pairing/handshake-proof';
import type { DiscoveredLock } from './discovery';
import { CliError } from './errors';

/** An error_response from DiffTray. */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** What is kept of an HTTP refusal's body, for the error shown. */
const MAX_REFUSAL_CHARS = 2000;

interface Pending {
  resolve: (payload: unknown) => void;
  reject: (error: Error) => void;
}

export class NativeClient {
  private readonly pending = new Map<string, Pending>();
  private readonly pushListeners = new Set<(command: string, payload: unknown) => void>();
  /**
   * Pushes no listener took yet, kept for waitForPush: a result can arrive in the same read as the
   * response that names it, before the caller had a chance to listen for it.
   */
  private readonly unclaimed: Array<{ command: string; payload: unknown }> = [];
  private heartbeat: NodeJS.Timeout | undefined;
  /** Resolves when the socket closes, with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(data.toString()));
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        if (this.heartbeat) clearInterval(this.heartbeat);
        const error = new CliError(
          `the connection to DiffTray closed (${code}${reason.length ? ` ${reason}` : ''})`,
        );
        for (const { reject } of this.pending.values()) reject(error);
        this.pending.clear();
        resolve({ code, reason: reason.toString() });
      }),
    );
    socket.on('error', () => {
      // Reported through 'close'.
    });
  }

  /**
   * Connects to the endpoint a lock file (or paired.json) names, and authenticates only once the server
   * has proved who it is (shared/native-handshake.ts): the lock file's token never goes to a program that
   * merely listens on the port. Failures are CliErrors worded for a person.
   */
  static async connect(lock: DiscoveredLock, timeoutMs = 10_000): Promise<NativeClient> {
    const client = await NativeClient.open(lock, timeoutMs);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      client.socket.terminate();
    }, timeoutMs);
    try {
      await client.proveServer(lock);
      await client.request<AuthenticateResponse>(AUTHENTICATE_COMMAND, { token: lock.authToken });
      return client;
    } catch (error) {
      client.socket.terminate();
      if (timedOut) throw new CliError(`DiffTray did not answer on port ${lock.port} in time`);
      if (!(error instanceof ProtocolError)) throw error;
      // A paired host's token stops working when the person revokes it in DiffTray.
      const hint =
        lock.via && error.code === ErrorCode.INVALID_TOKEN
          ? "; this host's pairing was revoked or is unknown there: run difftray pair again"
          : '';
      throw new CliError(`DiffTray refused the connection (${error.code} ${error.message})${hint}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Only makes the server prove who it is (see proveServer), then closes: nothing but a nonce is sent.
   * `difftray pair` does this before it sends a code to a host whose DiffTray key is already pinned.
   */
  static async verifyServer(lock: DiscoveredLock, timeoutMs = 10_000): Promise<void> {
    const client = await NativeClient.open(lock, timeoutMs);
    const timer = setTimeout(() => client.socket.terminate(), timeoutMs);
    try {
      await client.proveServer(lock);
    } finally {
      clearTimeout(timer);
      client.socket.terminate();
    }
  }

  /** Opens the socket at HANDSHAKE_PATH, with no token: nothing of value is sent before proveServer. */
  private static open(lock: DiscoveredLock, timeoutMs: number): Promise<NativeClient> {
    return new Promise((resolve, reject) => {
      // A paired DiffTray is reached through the tunnel; it checks the Host header against its own port.
      const host = lock.via?.host ?? '127.0.0.1';
      const socket = new WebSocket(`ws://${host}:${lock.port}${HANDSHAKE_PATH}`, {
        headers: { ...(lock.via && { Host: `127.0.0.1:${lock.via.serverPort}` }) },
        maxPayload: NATIVE_MAX_MESSAGE_BYTES,
        handshakeTimeout: timeoutMs,
      });
      const client = new NativeClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        // Whoever answers is not known yet: only the start of its refusal is kept.
        response.on('data', (chunk: Buffer) => {
          if (body.length < MAX_REFUSAL_CHARS) body += chunk.toString();
        });
        response.on('end', () => {
          let detail = body.slice(0, MAX_REFUSAL_CHARS).trim();
          try {
            const parsed = JSON.parse(detail) as { code?: number; message?: string };
            detail = `${parsed.code} ${parsed.message}`;
          } catch {
            // Plain text.
          }
          socket.terminate();
          reject(new CliError(`DiffTray refused the connection (HTTP ${response.statusCode}: ${detail})`));
        });
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          new CliError(
            error.code === 'ECONNREFUSED'
              ? `DiffTray is not running (nothing listens on port ${lock.port} named by its lock file)`
              : `cannot reach DiffTray on port ${lock.port}: ${error.message}`,
          ),
        );
      });
    });
  }

  /**
   * Challenges the server with a fresh nonce: a lock file's DiffTray answers with a MAC under the lock
   * file's token, a paired one signs with the host key paired.json pinned. Anything else: a CliError, and
   * nothing has been sent but the nonce.
   */
  private async proveServer(lock: DiscoveredLock): Promise<void> {
    const where = `${lock.via?.host ?? '127.0.0.1'}:${lock.port}`;
    const pinned = lock.via?.hostKey;
    if (lock.via && !pinned) {
      throw new CliError(
        `paired.json pins no DiffTray host key (it was written by an older difftray): run difftray pair again`,
      );
    }
    const nonce = newNonce();
    let raw: unknown;
    try {
      raw = await this.request(CHALLENGE_COMMAND, { nonce });
    } catch (error) {
      throw error instanceof ProtocolError
        ? new CliError(
            `the server on ${where} did not answer the challenge (${error.code}: ${error.message})`,
          )
        : error;
    }
    const answer = challengeResponseSchema.safeParse(raw);
    if (pinned) {
      if (!answer.success || !isSignedBy(pinned, SERVER_SIGNATURE_LABEL, nonce, answer.data.signature)) {
        const presented = answer.success ? answer.data.host_key.fingerprint : 'no valid key';
        throw new CliError(
          `the server on ${where} is not the DiffTray this host paired with: it did not sign with the ` +
            `pinned host key ${pinned.fingerprint} (it presents ${presented}); nothing was sent. If ` +
            `DiffTray's key changed on purpose, compare the key DiffTray shows beside a pairing code and ` +
            `run difftray pair --new-host-key`,
        );
      }
      return;
    }
    if (!answer.success || !isServerProof(lock.authToken, nonce, answer.data.proof)) {
      throw new CliError(
        `the program on ${where} is not the DiffTray of the lock file: it could not prove that it knows ` +
          `the lock file's token, so nothing was sent (a stale lock file whose port someone else took?)`,
      );
    }
  }

  request<T>(command: string, payload: unknown = {}): Promise<T> {
    const message_id = randomUUID();
    const envelope: Envelope = {
      protocol_version: NATIVE_PROTOCOL_VERSION,
      message_id,
      type: 'request',
      command,
      payload,
    };
    return new Promise<T>((resolve, reject) => {
      if (this.socket.readyState !== WebSocket.OPEN) {
        reject(new CliError('the connection to DiffTray is closed'));
        return;
      }
      this.pending.set(message_id, { resolve: resolve as (payload: unknown) => void, reject });
      this.socket.send(JSON.stringify(envelope));
    });
  }

  onPush(listener: (command: string, payload: unknown) => void): () => void {
    this.pushListeners.add(listener);
    return () => this.pushListeners.delete(listener);
  }

  /**
   * The first push of `command` whose payload `matches`; rejects with a CliError when the connection
   * closes first (the review or approval is then cancelled by DiffTray, or DiffTray went away).
   */
  waitForPush<T>(command: string, matches: (payload: T) => boolean): Promise<T> {
    const early = this.unclaimed.findIndex((push) => push.command === command && matches(push.payload as T));
    if (early >= 0) return Promise.resolve(this.unclaimed.splice(early, 1)[0]!.payload as T);
    return new Promise<T>((resolve, reject) => {
      const stop = this.onPush((pushed, payload) => {
        if (pushed !== command || !matches(payload as T)) return;
        stop();
        const claimed = this.unclaimed.findIndex((push) => push.payload === payload);
        if (claimed >= 0) this.unclaimed.splice(claimed, 1);
        resolve(payload as T);
      });
      void this.closed.then(({ code, reason }) => {
        stop();
        reject(new CliError(`the connection to DiffTray closed (${code}${reason ? ` ${reason}` : ''})`));
      });
    });
  }

  /** Sends `heartbeat` every `intervalMs` (as the hello response asked); the timer does not keep Node alive. */
  startHeartbeat(intervalMs: number): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = setInterval(
      () => {
        this.request('heartbeat').catch(() => {
          // A closed connection shows up through `closed`.
        });
      },
      Math.max(1000, intervalMs),
    );
    this.heartbeat.unref();
  }

  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.socket.close(1000, 'done');
  }

  private receive(text: string): void {
    let message: Envelope;
    try {
      message = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (message.type === 'push') {
      // Bounded: a one-shot client waits for one or two results; older unclaimed ones are let go.
      this.unclaimed.push({ command: message.command, payload: message.payload });
      if (this.unclaimed.length > 16) this.unclaimed.shift();
      for (const listener of this.pushListeners) listener(message.command, message.payload);
      return;
    }
    const waiter = this.pending.get(message.message_id);
    if (!waiter) return;
    this.pending.delete(message.message_id);
    if (message.type === 'error_response') {
      const error = message.payload as ErrorPayload;
      waiter.reject(new ProtocolError(error.code, error.message, error.details));
    } else {
      waiter.resolve(message.payload);
    }
  }
}
