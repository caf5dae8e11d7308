import { describe, expect, it } from 'vitest';
import type { ConnectionRequest } from '../../shared/app-api';
import { connectionNotices } from '../../src-main/desktop/connection-notices';

const request = (id: string, extra: Partial<ConnectionRequest> = {}): ConnectionRequest => ({
  id,
  name: 'Clio',
  protocol: 'clio',
  identifiedBy: 'process',
  pid: 4242,
  cwd: '/home/me/code/app',
  canTrustAlways: false,
  askedAt: 0,
  expiresAt: 60_000,
  ...extra,
});

describe('connectionNotices', () => {
  it('tells each new prompt once, and forgets those no longer waiting', () => {
    const told = new Set<string>();
    expect(connectionNotices({ version: 1, connectionRequests: [request('a')] }, told)).toEqual([
      {
        requestId: 'a',
        title: 'Clio (pid 4242, /home/me/code/app) wants to connect',
        body: 'Open DiffTray to allow or deny it.',
      },
    ]);
    expect(connectionNotices({ version: 2, connectionRequests: [request('a')] }, told)).toEqual([]);
    expect(connectionNotices({ version: 3 }, told)).toEqual([]);
    const byName = request('b', { identifiedBy: 'name', pid: undefined, cwd: undefined });
    expect(connectionNotices({ version: 4, connectionRequests: [byName] }, told)).toEqual([
      {
        requestId: 'b',
        title: 'Clio (identified by the name it gave) wants to connect',
        body: 'Open DiffTray to allow or deny it.',
      },
    ]);
    expect([...told]).toEqual(['b']);
  });
});
