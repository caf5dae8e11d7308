/** A long-lived native session (one `difftray` daemon, many change sets) must not keep every text it saw. */
import { describe, expect, it } from 'vitest';
import { NativeSessions, type ReviewRecord, type SessionPush } from '../../src-main/bridge/native/sessions';
import { AppCore } from '../../src-main/core/app-core';
import { clientPort } from '../../src-main/core/clients/agent-session';

const BIG = 'x'.repeat(1024 * 1024);

function sessions() {
  const core = new AppCore(['/ws']);
  const delivered: SessionPush[] = [];
  const native = new NativeSessions({
    port: clientPort(core),
    graceMs: 60_000,
    log: () => {},
    disconnectCode: 4011,
  });
  const session = native.create('daemon', '1', { deliver: (r) => delivered.push(r), end: () => {} });
  return { native, session, delivered };
}

function record(id: string): ReviewRecord {
  return {
    id,
    title: id,
    createdAt: 0,
    request: {
      client: { id: 'c', name: 'n', protocol: 'native', connectedAt: 0, connected: true },
      title: id,
      files: [],
    },
    planned: [
      {
        kind: 'review',
        path: 'a.txt',
        real: '/ws/a.txt',
        disk: 'old_side',
        base: { exists: true, kind: 'text', text: BIG },
        proposedText: BIG,
        deletes: false,
      },
    ],
  };
}

describe('native sessions keep results, not texts', () => {
  it('a delivered review lets go of its planned texts and request; at most 200 ended reviews are kept', () => {
    const { native, session, delivered } = sessions();
    for (let i = 0; i < 250; i++) {
      const r = record(`r${i}`);
      session.reviews.set(r.id, r);
      native.deliver(session, r, {
        command: 'change_set_result',
        payload: { review_id: r.id, status: 'accepted', files: [] },
      });
    }
    expect(delivered).toHaveLength(250);
    expect(session.reviews.size).toBe(200);
    expect([...session.reviews.keys()][0]).toBe('r50');
    for (const kept of session.reviews.values()) {
      expect(kept.planned).toEqual([]);
      expect(kept.request).toBeUndefined();
    }
  });
});
