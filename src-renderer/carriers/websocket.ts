import type {
  AppApiMethod,
  StateEvent,
  HeadlessClientMessage,
  HeadlessServerMessage,
} from '../../shared/app-api';
import type { ConnectionStatus, RendererCarrier } from './types';

export interface WebSocketCarrierOptions {
  /** First reconnect delay; doubles per failed attempt up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Injected in tests; defaults to the browser's WebSocket. */
  createSocket?: (url: string) => WebSocket;
}

/**
 * The headless server serves the renderer and its API on the same origin. The token comes in the page URL
 * the first time; after that (a reload, the token dropped from the address bar) the session cookie the
 * page was served with admits the API on its own.
 */
export function headlessApiUrl(location: Pick<Location, 'protocol' | 'host' | 'search'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = new URLSearchParams(location.search).get('token');
  return `${scheme}//${location.host}/api${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/**
 * The page's address without its token, or undefined when it has none: the address bar (and so history,
 * bookmarks, screen shares) stops showing it once the page has its session cookie.
 */
export function addressWithoutToken(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
): string | undefined {
  const query = new URLSearchParams(location.search);
  if (!query.has('token')) return undefined;
  query.delete('token');
  const rest = query.toString();
  return `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`;
}

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

// WebSocket.OPEN, spelled out so the carrier also runs where no global WebSocket exists (Node tests).
const OPEN = 1;

export const DISCONNECTED_MESSAGE = 'Disconnected from DiffTray';

export function createWebSocketCarrier(url: string, options: WebSocketCarrierOptions = {}): RendererCarrier {
  const minDelay = options.minDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5000;
  const createSocket = options.createSocket ?? ((u: string) => new WebSocket(u));

  const pending = new Map<number, PendingCall>();
  const stateListeners = new Set<(event: StateEvent) => void>();
  const statusListeners = new Set<(status: ConnectionStatus, detail?: string) => void>();
  let status: ConnectionStatus = 'connecting';
  let statusDetail: string | undefined;
  let socket: WebSocket | undefined;
  let nextId = 1;
  let failures = 0;

  const setStatus = (next: ConnectionStatus, detail?: string): void => {
    status = next;
    statusDetail = detail;
    for (const listener of statusListeners) listener(next, detail);
  };

  const handleMessage = (raw: unknown): void => {
    if (typeof raw !== 'string') return;
    let message: HeadlessServerMessage;
    try {
      message = JSON.parse(raw) as HeadlessServerMessage;
    } catch {
      return; // A malformed frame must not take the UI down.
    }
    if ('event' in message) {
      const event: StateEvent =
        message.event === 'change' ? { change: message.change } : { snapshot: message.snapshot };
      for (const listener of stateListeners) listener(event);
      return;
    }
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    if ('error' in message) call.reject(new Error(message.error.message));
    else call.resolve(message.result);
  };

  const connect = (): void => {
    const ws = createSocket(url);
    socket = ws;
    ws.onopen = () => {
      failures = 0;
      setStatus('connected');
    };
    ws.onmessage = (event) => handleMessage(event.data);
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = undefined;
      // Calls in flight will never be answered by this socket; fail them now so the UI can say so.
      for (const call of pending.values()) call.reject(new Error(DISCONNECTED_MESSAGE));
      pending.clear();
      setStatus('disconnected', event.reason || undefined);
      const delay = Math.min(maxDelay, minDelay * 2 ** failures);
      failures += 1;
      // Jitter keeps several windows from hammering a restarting server in lockstep.
      setTimeout(connect, delay * (0.75 + Math.random() * 0.5));
    };
  };

  connect();

  return {
    kind: 'websocket',
    snapshotOnConnect: true,
    call(method: AppApiMethod, params: unknown): Promise<unknown> {
      const ws = socket;
      if (!ws || ws.readyState !== OPEN) return Promise.reject(new Error(DISCONNECTED_MESSAGE));
      const id = nextId++;
      const message: HeadlessClientMessage = { id, method, params };
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify(message));
      });
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status, statusDetail);
      return () => statusListeners.delete(listener);
    },
  };
}
