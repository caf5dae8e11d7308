import { describe, it, expect, vi } from 'vitest';
import { ClientRegistry } from '../../src-main/core/clients/client-registry';

/** A clock that advances by one on every read. */
function ticking(start = 100): () => number {
  let t = start;
  return () => t++;
}

describe('ClientRegistry', () => {
  it('connect lists a connected client with a fresh id and the time', () => {
    const registry = new ClientRegistry(ticking());
    const a = registry.connect('Claude Code', 'claude-ide');
    const b = registry.connect('Nexus', 'nexus3-ide');
    expect(a).toEqual({
      id: a.id,
      name: 'Claude Code',
      protocol: 'claude-ide',
      connectedAt: 100,
      connected: true,
    });
    expect(b.connectedAt).toBe(101);
    expect(a.id).not.toBe(b.id);
    expect(registry.list()).toEqual([a, b]);
  });

  it('describe fills in details, the workspace included', () => {
    const registry = new ClientRegistry(() => 5);
    const client = registry.connect('x', 'claude-ide');
    registry.describe(client.id, {
      name: 'Claude Code',
      version: '2.1',
      pid: 4242,
      workspace: '/home/me/project',
    });
    expect(registry.list()).toEqual([
      {
        id: client.id,
        name: 'Claude Code',
        protocol: 'claude-ide',
        connectedAt: 5,
        connected: true,
        version: '2.1',
        pid: 4242,
        workspace: '/home/me/project',
      },
    ]);
  });

  it('describe of an unknown id is ignored without notifying', () => {
    const registry = new ClientRegistry();
    const listener = vi.fn();
    registry.onChange(listener);
    registry.describe('nope', { workspace: '/x' });
    expect(listener).not.toHaveBeenCalled();
    expect(registry.list()).toEqual([]);
  });

  it('setStatus records the text and the time, and notifies', () => {
    const registry = new ClientRegistry(ticking(10));
    const client = registry.connect('x', 'claude-ide');
    const listener = vi.fn();
    registry.onChange(listener);
    registry.setStatus(client.id, 'running tests…');
    expect(registry.list()[0]!.status).toEqual({ text: 'running tests…', at: 11 });
    expect(listener).toHaveBeenCalledTimes(1);
    registry.setStatus(client.id, 'done');
    expect(registry.list()[0]!.status).toEqual({ text: 'done', at: 12 });
  });

  it('setStatus keeps at most 500 characters', () => {
    const registry = new ClientRegistry();
    const client = registry.connect('x', 'claude-ide');
    registry.setStatus(client.id, 'y'.repeat(500));
    expect(registry.list()[0]!.status!.text).toBe('y'.repeat(500));
    registry.setStatus(client.id, 'abc'.repeat(400));
    expect(registry.list()[0]!.status!.text).toBe('abc'.repeat(400).slice(0, 500));
    expect(registry.list()[0]!.status!.text).toHaveLength(500);
  });

  it('setStatus never cuts a character in two', () => {
    const registry = new ClientRegistry();
    const client = registry.connect('x', 'claude-ide');
    registry.setStatus(client.id, 'y'.repeat(499) + '😀😀');
    expect(registry.list()[0]!.status!.text).toBe('y'.repeat(499) + '😀');
  });

  it('setStatus for an unknown id is ignored', () => {
    const registry = new ClientRegistry();
    const listener = vi.fn();
    registry.onChange(listener);
    registry.setStatus('nope', 'x');
    expect(listener).not.toHaveBeenCalled();
  });

  it("requestDisconnect calls that client's closer only, and leaves the list to disconnect", () => {
    const registry = new ClientRegistry();
    const closeA = vi.fn();
    const closeB = vi.fn();
    const a = registry.connect('a', 'claude-ide', closeA);
    registry.connect('b', 'claude-ide', closeB);
    registry.requestDisconnect(a.id);
    expect(closeA).toHaveBeenCalledTimes(1);
    expect(closeB).not.toHaveBeenCalled();
    expect(registry.list()).toHaveLength(2); // until the connection reports its end
    registry.disconnect(a.id);
    expect(registry.list().map((c) => c.name)).toEqual(['b']);
  });

  it('requestDisconnect of an unknown or already disconnected id throws', () => {
    const registry = new ClientRegistry();
    const close = vi.fn();
    const client = registry.connect('a', 'claude-ide', close);
    expect(() => registry.requestDisconnect('nope')).toThrow('No connected client nope');
    registry.disconnect(client.id);
    expect(() => registry.requestDisconnect(client.id)).toThrow(Error);
    expect(close).not.toHaveBeenCalled();
  });

  it('a client connected without a closer can be asked to disconnect harmlessly', () => {
    const registry = new ClientRegistry();
    const client = registry.connect('a', 'claude-ide');
    expect(() => registry.requestDisconnect(client.id)).not.toThrow();
  });

  it('disconnect marks the client object disconnected, drops it, and notifies once', () => {
    const registry = new ClientRegistry();
    const client = registry.connect('a', 'claude-ide');
    const listener = vi.fn();
    const unsubscribe = registry.onChange(listener);
    registry.disconnect(client.id);
    expect(client.connected).toBe(false);
    expect(registry.list()).toEqual([]);
    registry.disconnect(client.id);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    registry.connect('b', 'claude-ide');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
