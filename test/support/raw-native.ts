/** A native-protocol client stand-in for tests: a bare WebSocket; responses matched by message_id, pushes queued. */
import WebSocket from 'ws';
import { expect } from 'vitest';

export const NATIVE_HEADER = 'x-difftray-authorization';
export type Message = {
  protocol_version: string;
  message_id: string;
  type: string;
  command: string;
  payload: Record<string, unknown>;
};

/** A native client stand-in: a bare WebSocket; responses matched by message_id, pushes queued. */
export class RawNative {
  private readonly responses = new Map<string, (message: Message) => void>();
  private readonly pushes: Message[] = [];
  private pushWaiters: Array<(message: Message) => void> = [];
  /** Error responses to messages without a usable message_id. */
  readonly orphanErrors: Message[] = [];
  private orphanWaiters: Array<(message: Message) => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message;
      const waiter = this.responses.get(message.message_id);
      if (waiter && (message.type === 'response' || message.type === 'error_response')) {
        this.responses.delete(message.message_id);
        waiter(message);
      } else if (message.type === 'push') {
        const next = this.pushWaiters.shift();
        if (next) next(message);
        else this.pushes.push(message);
      } else {
        const next = this.orphanWaiters.shift();
        if (next) next(message);
        else this.orphanErrors.push(message);
      }
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** `path`: where to open, '' (the token in a header) or HANDSHAKE_PATH (the token in a message). */
  static open(port: number, headers: Record<string, string>, path = ''): Promise<RawNative> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
      const client = new RawNative(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { body })));
      });
      socket.once('error', reject);
    });
  }

  /** Sends a request envelope and resolves with the response or error_response to it. */
  request(command: string, payload: unknown = {}, timeoutMs = 5000): Promise<Message> {
    const message_id = `m${this.nextId++}`;
    return this.sendRaw(
      { protocol_version: '1.0', message_id, type: 'request', command, payload },
      message_id,
      timeoutMs,
    );
  }

  sendRaw(message: unknown, expectId?: string, timeoutMs = 5000): Promise<Message> {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer from DiffTray')), timeoutMs);
      const done = (answer: Message) => {
        clearTimeout(timer);
        resolve(answer);
      };
      if (expectId !== undefined) this.responses.set(expectId, done);
      else {
        const queued = this.orphanErrors.shift();
        if (queued) done(queued);
        else this.orphanWaiters.push(done);
      }
    });
  }

  nextPush(timeoutMs = 5000): Promise<Message> {
    const queued = this.pushes.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no push from DiffTray')), timeoutMs);
      this.pushWaiters.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  async expectNoPush(ms = 150): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    expect(this.pushes).toEqual([]);
  }

  close(): void {
    this.socket.terminate();
  }
}
