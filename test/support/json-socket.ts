/**
 * A bare WebSocket client that speaks JSON, for protocols whose messages the tests write by hand
 * (Clio, native): every message received is kept, and a test waits for the first one that matches.
 */
import WebSocket from 'ws';

export type JsonMessage = Record<string, unknown>;

export class JsonSocket {
  readonly received: JsonMessage[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as JsonMessage);
      for (const waiter of this.waiters) waiter();
    });
  }

  static open(port: number, headers: Record<string, string>): Promise<JsonSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`, { headers });
      const client = new JsonSocket(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode}`)),
      );
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message received (since the start) that matches `predicate`, now or when it arrives. */
  waitFor(predicate: (message: JsonMessage) => boolean, timeoutMs = 10_000): Promise<JsonMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(predicate);
        if (!found) return false;
        this.waiters.delete(waiter);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const waiter = () => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching message; received: ${JSON.stringify(this.received).slice(0, 500)}`));
      }, timeoutMs);
      this.waiters.add(waiter);
      check();
    });
  }

  close(): void {
    this.socket.terminate();
  }
}
