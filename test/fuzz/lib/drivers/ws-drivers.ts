/**
 * Fuzz drivers for the WebSocket endpoints: Claude Code (MCP over WS), Clio, native, and the headless
 * app API. Each sends frames on one connection per batch, reopened whenever the server closes it.
 */
import type { Frame } from '../frames';
import { headlessApiUrl } from './app-api';
import { LimitRefusal, settleAll, type DriverOptions, type EndpointDriver } from './driver';
import { isRecord, WsLink, type WsLinkOptions } from './ws-link';

const HANDSHAKE_TIMEOUT_MS = 10_000;

abstract class WsFuzzDriver implements EndpointDriver {
  reconnects = 0;
  private link: WsLink | undefined;

  constructor(protected readonly options: DriverOptions) {}

  /** Where and how the fuzz connection opens. */
  protected abstract linkOptions(): WsLinkOptions;
  /** What a client sends first (initialize, hello...), so most frames reach the handlers behind it. */
  protected async greet(_link: WsLink): Promise<void> {}
  abstract probe(timeoutMs: number): Promise<void>;

  async send(frame: Frame): Promise<void> {
    const link = await this.fuzzLink();
    await link.send(frame.data, frame.binary);
  }

  async endBatch(): Promise<void> {
    this.link?.close();
    this.link = undefined;
  }

  protected open(options: WsLinkOptions = this.linkOptions()): Promise<WsLink> {
    return WsLink.open({ onText: this.options.onText, ...options }, HANDSHAKE_TIMEOUT_MS);
  }

  private async fuzzLink(): Promise<WsLink> {
    if (this.link?.isOpen) return this.link;
    if (this.link) this.reconnects++;
    this.link = await this.open();
    // Now and then a connection skips the greeting, so frames also reach the state before it.
    if (this.options.prng.chance(0.85)) await this.greet(this.link).catch(() => undefined);
    return this.link;
  }
}

let nextId = 1_000_000;
const initializeRequest = () => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
});

/** Sends a JSON-RPC request and waits for its answer (a result or an error). */
async function rpcCall(
  link: WsLink,
  request: { id: number },
  timeoutMs: number,
  what: string,
): Promise<unknown> {
  const answer = link.waitFor((m) => isRecord(m) && m.id === request.id, timeoutMs, what);
  await link.sendJson(request);
  return answer;
}

export class ClaudeDriver extends WsFuzzDriver {
  protected linkOptions(): WsLinkOptions {
    const { port, token } = this.options.endpoints.claude;
    return {
      url: `ws://127.0.0.1:${port}`,
      headers: { 'x-claude-code-ide-authorization': token },
      protocols: ['mcp'],
    };
  }

  protected override async greet(link: WsLink): Promise<void> {
    await rpcCall(link, initializeRequest(), HANDSHAKE_TIMEOUT_MS, 'initialize');
    await link.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async probe(timeoutMs: number): Promise<void> {
    const link = await this.open();
    try {
      await rpcCall(link, initializeRequest(), timeoutMs, 'initialize');
      await link.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const call = {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name: 'getWorkspaceFolders', arguments: {} },
      };
      const answer = await rpcCall(link, call, timeoutMs, 'tools/call getWorkspaceFolders');
      if (!isRecord(answer) || !isRecord(answer.result))
        throw new Error(`getWorkspaceFolders answered ${JSON.stringify(answer)}`);
    } finally {
      link.close();
    }
  }
}

/** Clio unauthenticated sockets kept open at once during a batch (more are closed oldest first). */
const MAX_PREAUTH_SOCKETS = 50;

export class ClioDriver extends WsFuzzDriver {
  /** How this batch's fuzz connection proves its token: header at upgrade, `connect`, or never. */
  private auth: 'header' | 'connect' | 'none' = 'header';
  private readonly preauth: WsLink[] = [];

  async startBatch(): Promise<void> {
    this.auth = this.options.prng.weighted([
      [5, 'header'],
      [3, 'connect'],
      [2, 'none'],
    ] as const);
  }

  protected linkOptions(): WsLinkOptions {
    const { port, token } = this.options.endpoints.clio;
    return {
      url: `ws://127.0.0.1:${port}`,
      headers: this.auth === 'header' ? { 'x-clio-ide-authorization': token } : {},
    };
  }

  protected override async greet(link: WsLink): Promise<void> {
    if (this.auth !== 'connect') return;
    const connected = link.waitFor(
      (m) => isRecord(m) && m.type === 'connected',
      HANDSHAKE_TIMEOUT_MS,
      'connect',
    );
    await link.sendJson({ type: 'connect', clientVersion: 'fuzz', token: this.options.endpoints.clio.token });
    await connected;
  }

  override async send(frame: Frame): Promise<void> {
    if (!frame.preauth) return super.send(frame);
    // Before authentication: a fresh socket with no token, left open as an idle attacker would.
    const { port } = this.options.endpoints.clio;
    const link = await this.open({ url: `ws://127.0.0.1:${port}` });
    this.preauth.push(link);
    if (this.preauth.length > MAX_PREAUTH_SOCKETS) this.preauth.shift()!.close();
    await link.send(frame.data, frame.binary);
  }

  override async endBatch(): Promise<void> {
    for (const link of this.preauth.splice(0)) link.close();
    await super.endBatch();
  }

  async probe(timeoutMs: number): Promise<void> {
    const { port, token } = this.options.endpoints.clio;
    const link = await this.open({
      url: `ws://127.0.0.1:${port}`,
      headers: { 'x-clio-ide-authorization': token },
    });
    try {
      const connected = link.waitFor((m) => isRecord(m) && m.type === 'connected', timeoutMs, 'connect');
      await link.sendJson({ type: 'connect', clientVersion: 'probe', token });
      await connected;
    } finally {
      link.close();
    }
  }
}

const envelope = (command: string, payload: unknown) => ({
  protocol_version: '1.0',
  message_id: `fuzz-${nextId++}`,
  type: 'request',
  command,
  payload,
});

async function nativeCall(
  link: WsLink,
  message: ReturnType<typeof envelope>,
  timeoutMs: number,
): Promise<unknown> {
  const answer = link.waitFor(
    (m) => isRecord(m) && m.message_id === message.message_id,
    timeoutMs,
    message.command,
  );
  await link.sendJson(message);
  return answer;
}

export class NativeDriver extends WsFuzzDriver {
  private readonly preauth: WsLink[] = [];

  private preauthSent = 0;

  /**
   * Before authentication: a fresh socket with no token, left open as an attacker would, at the path the
   * frame names, else by turns at the pairing path and the handshake path (challenge, then a token).
   */
  override async send(frame: Frame): Promise<void> {
    if (!frame.preauth) return super.send(frame);
    const { port } = this.options.endpoints.native;
    const path = frame.preauthPath ?? (this.preauthSent++ % 2 === 0 ? '/pair' : '/handshake');
    let link: WsLink;
    try {
      link = await this.open({ url: `ws://127.0.0.1:${port}${path}` });
    } catch {
      // Refused at the upgrade (503: the few sockets without a token are taken): as it should be.
      return;
    }
    this.preauth.push(link);
    if (this.preauth.length > MAX_PREAUTH_SOCKETS) this.preauth.shift()!.close();
    await link.send(frame.data, frame.binary);
  }

  override async endBatch(): Promise<void> {
    for (const link of this.preauth.splice(0)) link.close();
    await super.endBatch();
  }

  protected linkOptions(): WsLinkOptions {
    const { port, token } = this.options.endpoints.native;
    return { url: `ws://127.0.0.1:${port}`, headers: { 'x-difftray-authorization': token } };
  }

  protected override async greet(link: WsLink): Promise<void> {
    await nativeCall(
      link,
      envelope('hello', { client_name: 'fuzz', client_version: '1' }),
      HANDSHAKE_TIMEOUT_MS,
    );
  }

  async probe(timeoutMs: number): Promise<void> {
    const link = await this.open();
    try {
      const answer = await nativeCall(link, envelope('heartbeat', {}), timeoutMs);
      const code = isRecord(answer) && isRecord(answer.payload) ? answer.payload.code : undefined;
      if (code === 4002 || code === 4003) throw new LimitRefusal(JSON.stringify(answer));
      if (!isRecord(answer) || answer.type !== 'response')
        throw new Error(`heartbeat answered ${JSON.stringify(answer)}`);
    } finally {
      link.close();
    }
  }
}

/** Files the headless fuzz has reviews on (Clio openDiff: the CLI writes, so DiffTray never does). */
const REVIEWED_FILES = ['a.txt', 'src/main.ts'];

export class HeadlessDriver extends WsFuzzDriver {
  /** A Clio client holding reviews for the batch's frames to decide, edit, submit. */
  private clio: WsLink | undefined;

  protected linkOptions(): WsLinkOptions {
    return headlessApiUrl(this.options.endpoints);
  }

  async startBatch(): Promise<void> {
    const { port, token } = this.options.endpoints.clio;
    this.clio = await this.open({
      url: `ws://127.0.0.1:${port}`,
      headers: { 'x-clio-ide-authorization': token },
    });
    await settleAll(
      REVIEWED_FILES.map((file, i) =>
        this.clio!.sendJson({
          type: 'openDiff',
          file,
          after: `fuzz ${i}\nproposal\n`,
          description: 'fuzz review',
        }),
      ),
    );
  }

  override async endBatch(): Promise<void> {
    this.clio?.close();
    this.clio = undefined;
    await super.endBatch();
  }

  async probe(timeoutMs: number): Promise<void> {
    const link = await this.open();
    try {
      const id = nextId++;
      const answer = link.waitFor((m) => isRecord(m) && m.id === id, timeoutMs, 'getSnapshot');
      await link.sendJson({ id, method: 'getSnapshot', params: {} });
      const message = await answer;
      if (!isRecord(message) || !isRecord(message.result))
        throw new Error(`getSnapshot answered ${JSON.stringify(message)}`);
    } finally {
      link.close();
    }
  }
}
