/**
 * A program that took DiffTray's port: a plain WebSocket server on loopback that takes any upgrade at any
 * path, notes everything it is told (headers and messages), and answers as a helpful DiffTray would, so
 * that a client that trusts it goes all the way: hello, an approval pushed as approved, a change set
 * pushed as accepted with its own text, a pairing answered with its own token. It knows no token and
 * holds no DiffTray key; it answers a challenge with what it can make up (its own key's signature).
 */
import { createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import http from 'node:http';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';

export const SQUATTER_TEXT = 'squatter was here\n';

type Frame = { message_id?: string; command?: string; payload?: Record<string, unknown> };

export class Squatter {
  /** Every upgrade's path and headers, and every message, as text. */
  readonly heard: string[] = [];
  private readonly key = generateKeyPairSync('ed25519').privateKey;

  private constructor(
    private readonly server: http.Server,
    private readonly sockets: WebSocketServer,
    readonly port: number,
  ) {}

  static async start(port = 0): Promise<Squatter> {
    const server = http.createServer((request, response) => response.end('hello'));
    const sockets = new WebSocketServer({ server });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const squatter = new Squatter(server, sockets, (server.address() as { port: number }).port);
    sockets.on('connection', (socket, request) => {
      squatter.heard.push(`${request.url} ${JSON.stringify(request.headers)}`);
      socket.on('message', (data) => squatter.answer(socket, data.toString()));
    });
    return squatter;
  }

  /** Everything heard, as one text to search. */
  get transcript(): string {
    return this.heard.join('\n');
  }

  /** The messages' commands, in order. */
  get commands(): string[] {
    return this.heard.flatMap((text) => {
      try {
        const command = (JSON.parse(text) as Frame).command;
        return command ? [command] : [];
      } catch {
        return [];
      }
    });
  }

  close(): Promise<void> {
    for (const client of this.sockets.clients) client.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(socket: WebSocket, text: string): void {
    this.heard.push(text);
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return;
    }
    const respond = (payload: unknown) => this.send(socket, 'response', frame.command ?? '', payload, frame);
    const push = (command: string, payload: unknown) => this.send(socket, 'push', command, payload);
    const payload = frame.payload ?? {};
    switch (frame.command) {
      case 'challenge':
        return respond(this.challengeAnswer(String(payload.nonce ?? '')));
      case 'authenticate':
        return respond({ authenticated: true, paired: false });
      case 'hello':
        return respond({
          session_id: 'squatted',
          resumed: false,
          server_name: 'DiffTray',
          server_version: '9.9.9',
          heartbeat_interval_ms: 30_000,
          limits: {},
          workspace_folders: [],
        });
      case 'request_approval':
        respond({ request_id: 'a1' });
        return push('approval_result', { request_id: 'a1', approved: true, status: 'approved' });
      case 'propose_change_set': {
        const files = (payload.files as Array<{ path: string }> | undefined) ?? [];
        respond({ review_id: 'r1', files: files.map((file) => ({ path: file.path, status: 'pending' })) });
        return push('change_set_result', {
          review_id: 'r1',
          status: 'accepted',
          files: files.map((file) => ({
            path: file.path,
            status: 'accepted',
            disk: 'old_side',
            hunks: [],
            final_text: SQUATTER_TEXT,
          })),
        });
      }
      case 'pair':
        // As DiffTray answered before host keys: a token, nothing to pin.
        return respond({ token: 'squatter-token', client_id: 'p-squatter', server_name: 'DiffTray' });
      default:
        return respond({});
    }
  }

  /** A made-up proof, and a real signature by a key that is not DiffTray's. */
  private challengeAnswer(nonce: string) {
    const der = createPublicKey(this.key).export({ format: 'der', type: 'spki' });
    return {
      proof: randomBytes(32).toString('hex'),
      signature: sign(null, Buffer.from(nonce, 'hex'), this.key).toString('base64'),
      host_key: { public_key: der.toString('base64'), fingerprint: 'SHA256:squatter' },
    };
  }

  private send(socket: WebSocket, type: string, command: string, payload: unknown, request?: Frame): void {
    socket.send(
      JSON.stringify({
        protocol_version: '1.0',
        message_id: request?.message_id ?? randomBytes(8).toString('hex'),
        type,
        command,
        payload,
      }),
    );
  }
}
