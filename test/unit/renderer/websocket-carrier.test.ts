import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addressWithoutToken,
  createWebSocketCarrier,
  headlessApiUrl,
} from '../../../src-renderer/carriers/websocket';

class FakeSocket {
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { reason: string }) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(reason = '') {
    this.readyState = 3;
    this.onclose?.({ reason });
  }
}

describe('headless WebSocket carrier', () => {
  let sockets: FakeSocket[];
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter: delays of exactly 250, 500, 1000 ms
    sockets = [];
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  const make = () =>
    createWebSocketCarrier('ws://h/api?token=t', {
      createSocket: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s as unknown as WebSocket;
      },
    });

  it('builds the API address from the page address', () => {
    expect(headlessApiUrl({ protocol: 'http:', host: '127.0.0.1:5000', search: '?token=ab%2Bc' })).toBe(
      'ws://127.0.0.1:5000/api?token=ab%2Bc',
    );
    // No token in the page address (a reload after it was dropped): the session cookie admits the API.
    expect(headlessApiUrl({ protocol: 'https:', host: 'x', search: '' })).toBe('wss://x/api');
  });

  it('drops the token from the page address, keeping the rest', () => {
    expect(addressWithoutToken({ pathname: '/', search: '?token=abc', hash: '' })).toBe('/');
    expect(addressWithoutToken({ pathname: '/index.html', search: '?a=1&token=abc', hash: '#x' })).toBe(
      '/index.html?a=1#x',
    );
    expect(addressWithoutToken({ pathname: '/', search: '?a=1', hash: '' })).toBeUndefined();
  });

  it('answers calls by id, relays pushes and reports status', async () => {
    const carrier = make();
    const statuses: string[] = [];
    carrier.onStatus((s) => statuses.push(s));
    const events: unknown[] = [];
    carrier.onState((event) => events.push(event));
    await expect(carrier.call('getSnapshot', {})).rejects.toThrow('Disconnected from DiffTray');
    sockets[0]!.open();
    const ok = carrier.call('submit', { reviewId: 'r' });
    const bad = carrier.call('submit', { reviewId: 'x' });
    const [first, second] = sockets[0]!.sent.map((s) => JSON.parse(s) as { id: number; method: string });
    expect(first).toMatchObject({ method: 'submit', params: { reviewId: 'r' } });
    sockets[0]!.receive({ id: second!.id, error: { message: 'no such review' } });
    sockets[0]!.receive({ id: first!.id, result: null });
    sockets[0]!.receive({ event: 'snapshot', snapshot: { reviews: [] } });
    sockets[0]!.receive({ event: 'change', change: { version: 1, removed: ['r1'] } });
    await expect(ok).resolves.toBeNull();
    await expect(bad).rejects.toThrow('no such review');
    expect(events).toEqual([{ snapshot: { reviews: [] } }, { change: { version: 1, removed: ['r1'] } }]);
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('fails calls in flight on close and reconnects with backoff', async () => {
    const carrier = make();
    const statuses: string[] = [];
    carrier.onStatus((s) => statuses.push(s));
    sockets[0]!.open();
    const pending = carrier.call('getSnapshot', {});
    sockets[0]!.drop('server restart');
    await expect(pending).rejects.toThrow('Disconnected from DiffTray');
    expect(statuses.at(-1)).toBe('disconnected');
    vi.advanceTimersByTime(400);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(400);
    expect(sockets).toHaveLength(2); // second delay is longer
    vi.advanceTimersByTime(400);
    expect(sockets).toHaveLength(3);
    sockets[2]!.open();
    expect(statuses.at(-1)).toBe('connected');
  });
});
