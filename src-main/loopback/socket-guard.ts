/**
 * What every WebSocket of every endpoint (and of the headless API) goes through, so that no frame can
 * take the app down or hold memory it has not earned:
 *
 * - an `'error'` listener: ws emits 'error' for a frame over the limit (then closes with 1009) or a text
 *   frame with invalid UTF-8 (1007); with no listener Node ends the process;
 * - a frame limit that ws checks against the length in the frame header, before buffering anything:
 *   MAX_PREAUTH_FRAME_BYTES until the client has proved its token, MAX_FRAME_BYTES after;
 * - a deadline to authenticate, for connections that prove their token in a message (Clio's `connect`);
 * - a last-resort guard around every message handler: a throw or a rejection is logged and answered
 *   with the protocol's own error, and the connection and every other one live on.
 */
import type { RawData } from 'ws';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { AUTH_DEADLINE_MS, MAX_FRAME_BYTES } from './frame-limits';

export type Log = (message: string) => void;

/** Connections that have not yet proved their token, per endpoint, at one time. More are refused (503). */
export const MAX_PENDING_PREAUTH_CONNECTIONS = 16;

/**
 * A server whose sockets start with `maxPayload` as their frame limit. Compression stays off: an
 * inflated frame could be far larger than the bytes that crossed the wire.
 */
export function createSocketServer(
  maxPayload: number,
  handleProtocols?: (protocols: Set<string>) => string | false,
): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    maxPayload,
    perMessageDeflate: false,
    ...(handleProtocols && { handleProtocols }),
  });
}

/**
 * Protocol errors end the socket: ws sends the close frame (1009, 1007...) itself, and would then go on
 * reading, and discarding, whatever the peer keeps sending until the close handshake times out (30 s).
 * Such a peer gets no handshake: once the close frame is on its way, the connection is cut.
 */
export function guardSocket(socket: WebSocket, label: string, log: Log): void {
  socket.on('error', (error) => {
    log(`${label}: connection error: ${error.message}`);
    setImmediate(() => socket.terminate());
  });
}

/**
 * Sets the largest frame this socket accepts from now on. ws sets the limit once per server; a socket
 * that proves its token in a message gets the authenticated limit here. ws checks the limit against
 * each frame header (and a fragmented message's running total) before buffering its payload.
 */
export function setFrameLimit(socket: WebSocket, bytes: number): void {
  const receiver = (socket as unknown as { _receiver?: { _maxPayload?: unknown } })._receiver;
  if (!receiver || typeof receiver._maxPayload !== 'number') {
    // Fails closed: the socket keeps its smaller limit. A unit test pins this against the installed ws.
    throw new Error('cannot change the frame limit of this ws version');
  }
  receiver._maxPayload = bytes;
}

/**
 * Calls `expire` unless `done()` is called within `ms` (or the socket closes first). For connections
 * that authenticate by message; the caller says how the protocol tells the client before closing.
 */
export function startAuthDeadline(
  socket: WebSocket,
  expire: () => void,
  ms: number = AUTH_DEADLINE_MS,
): { done(): void } {
  const timer = setTimeout(expire, ms);
  timer.unref?.();
  const done = () => clearTimeout(timer);
  socket.once('close', done);
  return { done };
}

/**
 * Runs `task`; whatever it throws or rejects with is logged and handed to `answer` (the protocol's error
 * reply), which is itself guarded. Never throws.
 */
export function lastResort(
  task: () => unknown,
  label: string,
  log: Log,
  answer: (error: unknown) => void,
): void {
  const fail = (error: unknown) => {
    log(`${label}: a message handler failed: ${describe(error)}`);
    try {
      answer(error);
    } catch (answerError) {
      log(`${label}: could not answer the failure: ${describe(answerError)}`);
    }
  };
  try {
    const result = task();
    if (isThenable(result)) result.then(undefined, fail);
  } catch (error) {
    fail(error);
  }
}

/** Listens for messages through the last-resort guard. */
export function onGuardedMessage(
  socket: WebSocket,
  label: string,
  log: Log,
  handle: (data: RawData, isBinary: boolean) => unknown,
  answer: (error: unknown) => void,
): void {
  socket.on('message', (data: RawData, isBinary: boolean) =>
    lastResort(() => handle(data, isBinary), label, log, answer),
  );
}

/** Bytes a peer may leave unread (our answers it does not take in) before it is cut off. */
export const MAX_UNREAD_BYTES = MAX_FRAME_BYTES;

/**
 * Sends `text` if the socket is open. A peer that has stopped reading (more than MAX_UNREAD_BYTES of our
 * frames waiting) would make us hold every later answer in memory: it is cut off instead.
 */
export function sendText(socket: WebSocket, text: string, label: string, log: Log): void {
  if (socket.readyState !== socket.OPEN) return;
  if (cutOffIfNotReading(socket, label, log)) return;
  socket.send(text);
}

/** Terminates a peer with more than MAX_UNREAD_BYTES of our frames unread; says whether it did. */
export function cutOffIfNotReading(socket: WebSocket, label: string, log: Log): boolean {
  if (socket.bufferedAmount <= MAX_UNREAD_BYTES) return false;
  log(`${label}: the client stopped reading (${socket.bufferedAmount} bytes waiting); connection closed`);
  socket.terminate();
  return true;
}

/** Messages waiting in a SerialIntake beyond which the socket stops reading until they are handled. */
const MAX_QUEUED_MESSAGES = 8;

/**
 * Tasks run one at a time, in order; each through the last-resort guard, so one failure stops none after
 * it. With a socket given, reading pauses while too many messages wait, so a client sending faster than
 * they are handled is held back by TCP rather than by our memory.
 */
export class SerialIntake {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly label: string,
    private readonly log: Log,
    private readonly socket?: WebSocket,
  ) {}

  enqueue(task: () => unknown, answer: (error: unknown) => void): void {
    if (++this.queued >= MAX_QUEUED_MESSAGES) this.socket?.pause();
    const settled = () => {
      if (--this.queued < MAX_QUEUED_MESSAGES / 2 && this.socket?.isPaused) this.socket.resume();
    };
    this.tail = this.tail.then(
      () =>
        new Promise<void>((resolve) =>
          lastResort(
            async () => {
              try {
                await task();
              } finally {
                settled();
                resolve();
              }
            },
            this.label,
            this.log,
            answer,
          ),
        ),
    );
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
