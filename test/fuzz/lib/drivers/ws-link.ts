/**
 * One client WebSocket for the fuzz: opens with the headers an endpoint wants, sends frames with
 * back-pressure, and collects what comes back (for waiting on an answer and for the leak check).
 */
import WebSocket from 'ws';

export interface WsLinkOptions {
  url: string;
  headers?: Record<string, string>;
  protocols?: string[];
  origin?: string;
  /** Called with every message received, as text. */
  onText?: (text: string) => void;
}

export class WsLink {
  private readonly waiters = new Set<{ match: (m: unknown) => boolean; resolve: (m: unknown) => void }>();

  private constructor(readonly socket: WebSocket) {}

  static open(options: WsLinkOptions, timeoutMs = 10_000): Promise<WsLink> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(options.url, options.protocols ?? [], {
        headers: options.headers ?? {},
        ...(options.origin !== undefined && { origin: options.origin }),
        handshakeTimeout: timeoutMs,
        // The fuzz sends frames over every limit on purpose: the client must not refuse to send them.
        maxPayload: 512 * 1024 * 1024,
        perMessageDeflate: false,
      });
      const link = new WsLink(socket);
      socket.on('message', (data, isBinary) => {
        const text = Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data as Buffer).toString(isBinary ? 'latin1' : 'utf8');
        options.onText?.(text);
        link.deliver(text);
      });
      socket.on('error', (error) => {
        if (socket.readyState !== WebSocket.OPEN) reject(error);
      });
      socket.once('open', () => resolve(link));
      socket.once('close', () => reject(new Error('closed before it opened')));
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Resolves once the frame is handed to the kernel; false when the socket is (or goes) closed. */
  send(data: string | Buffer, binary: boolean): Promise<boolean> {
    if (!this.isOpen) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.send(data, { binary }, (error) => resolve(!error)));
  }

  sendJson(message: unknown): Promise<boolean> {
    return this.send(JSON.stringify(message), false);
  }

  /** The first parsed JSON message matching `match` from now on; rejects after `timeoutMs` or on close. */
  waitFor(match: (message: unknown) => boolean, timeoutMs: number, what: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (message: unknown) => {
          cleanup();
          resolve(message);
        },
      };
      const onClose = (code: number) => {
        cleanup();
        reject(new Error(`the socket closed (${code}) while waiting for ${what}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no answer to ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        this.socket.off('close', onClose);
      };
      this.waiters.add(waiter);
      this.socket.on('close', onClose);
    });
  }

  close(): void {
    this.socket.terminate();
  }

  private deliver(text: string): void {
    if (this.waiters.size === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    for (const waiter of [...this.waiters]) if (waiter.match(message)) waiter.resolve(message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
