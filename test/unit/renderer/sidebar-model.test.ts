import { describe, expect, it } from 'vitest';
import {
  clientLabel,
  connectedClients,
  disconnectLabels,
  groupHeading,
  groupQueue,
  historyEntries,
  historyStateLabel,
  newStatusLines,
  queueOrder,
  statusLine,
  tabCount,
} from '../../../src-renderer/state/sidebar-model';
import type { HunkState } from '../../../shared/line-decisions';
import type { ReviewFileInfo } from '../../../shared/app-api';
import { client, review, snapshot } from './fixtures-app-shell';

const a = client('a');
const b = client('b', { name: 'NEXUS3', protocol: 'nexus3-ide', version: undefined });
const c = client('c');

describe('groupQueue: pending reviews by client session', () => {
  it('groups by connection id, oldest review first in each group, groups ordered by their oldest', () => {
    const snap = snapshot(
      [review('b2', 5, b), review('a1', 2, a), review('b1', 1, b), review('a2', 3, a), review('c1', 4, c)],
      [a, b, c],
    );
    const groups = groupQueue(snap);
    expect(groups.map((group) => group.client.id)).toEqual(['b', 'a', 'c']);
    expect(groups.map((group) => group.reviews.map((r) => r.id))).toEqual([
      ['b1', 'b2'],
      ['a1', 'a2'],
      ['c1'],
    ]);
    expect(queueOrder(snap).map((r) => r.id)).toEqual(['b1', 'b2', 'a1', 'a2', 'c1']);
  });

  it('two sessions of the same CLI are two groups', () => {
    const groups = groupQueue(snapshot([review('x', 1, a), review('y', 2, c)], [a, c]));
    expect(groups).toHaveLength(2);
    expect(groups.map(groupHeading)).toEqual([
      'Claude Code 2.1.0 — 1 pending',
      'Claude Code 2.1.0 — 1 pending',
    ]);
  });

  it('leaves ended reviews out', () => {
    const groups = groupQueue(snapshot([review('x', 1, a, 'accepted'), review('y', 2, a)], [a]));
    expect(groups.map((group) => group.reviews.map((r) => r.id))).toEqual([['y']]);
  });

  it('a new arrival joins its group or starts one at the end; it never reorders the groups', () => {
    const before = snapshot([review('a1', 1, a), review('b1', 2, b)], [a, b]);
    const after = snapshot([...before.reviews, review('c1', 3, c), review('a2', 4, a)], [a, b, c]);
    expect(groupQueue(before).map((group) => group.client.id)).toEqual(['a', 'b']);
    expect(groupQueue(after).map((group) => group.client.id)).toEqual(['a', 'b', 'c']);
    expect(queueOrder(after).map((r) => r.id)).toEqual(['a1', 'a2', 'b1', 'c1']);
  });

  it('heads each group with the client as it is now (status), from the snapshot client list', () => {
    const now = client('a', { status: { text: 'running tests…', at: 9 } });
    const [group] = groupQueue(snapshot([review('x', 1, a)], [now]));
    expect(group?.client.status?.text).toBe('running tests…');
    expect(statusLine(group!.client)).toBe('Claude Code: running tests…');
    // A client the snapshot no longer lists falls back to the review's copy.
    expect(groupQueue(snapshot([review('x', 1, a)], []))[0]?.client).toBe(a);
  });

  it('headings: name, version when known, pending count', () => {
    const snap = snapshot(
      [review('x', 1, a), review('y', 2, a), review('z', 3, a), review('n', 4, b)],
      [a, b],
    );
    expect(groupQueue(snap).map(groupHeading)).toEqual([
      'Claude Code 2.1.0 — 3 pending',
      'NEXUS3 — 1 pending',
    ]);
    expect(clientLabel(b)).toBe('NEXUS3');
  });

  it('is empty without a snapshot', () => {
    expect(groupQueue(null)).toEqual([]);
    expect(queueOrder(null)).toEqual([]);
  });
});

describe('historyEntries', () => {
  it('lists every ended review, most recently ended first', () => {
    const reviews = [
      review('p', 1, a),
      review('acc', 1, a, 'accepted', { decidedAt: 10 }),
      review('rej', 2, a, 'rejected', { decidedAt: 30, reason: 'too broad' }),
      review('can', 3, b, 'cancelled', { decidedAt: 20, reason: 'client disconnected' }),
      review('sup', 4, a, 'superseded', { decidedAt: 25 }),
    ];
    expect(historyEntries(snapshot(reviews)).map((r) => r.id)).toEqual(['rej', 'sup', 'can', 'acc']);
  });

  it('has no limit', () => {
    const reviews = Array.from({ length: 40 }, (_, i) => review(`r${i}`, i, a, 'accepted', { decidedAt: i }));
    const history = historyEntries(snapshot(reviews));
    expect(history).toHaveLength(40);
    expect(history[0]?.id).toBe('r39');
  });

  it('without decidedAt falls back to arrival; ties go to the later arrival', () => {
    const reviews = [
      review('old', 1, a, 'cancelled'),
      review('tieOld', 2, a, 'accepted', { decidedAt: 50 }),
      review('tieNew', 3, a, 'rejected', { decidedAt: 50 }),
      review('mid', 5, a, 'accepted'),
    ];
    expect(historyEntries(snapshot(reviews)).map((r) => r.id)).toEqual(['tieNew', 'tieOld', 'mid', 'old']);
  });

  it('is empty without a snapshot', () => {
    expect(historyEntries(null)).toEqual([]);
  });
});

describe('connections', () => {
  it('lists connected clients, longest connected first', () => {
    const clients = [
      client('late', { connectedAt: 9 }),
      client('gone', { connected: false }),
      client('early', { connectedAt: 1 }),
    ];
    expect(connectedClients(snapshot([], clients)).map((x) => x.id)).toEqual(['early', 'late']);
  });

  it('Disconnect buttons are named after the client, made unique when names repeat', () => {
    const labels = disconnectLabels([
      client('1', { pid: 100 }),
      client('2', { pid: 200 }),
      client('3', { name: 'NEXUS3' }),
      client('4', { name: 'Tool' }),
      client('5', { name: 'Tool' }),
    ]);
    expect([...labels.values()]).toEqual([
      'Disconnect Claude Code (pid 100)',
      'Disconnect Claude Code (pid 200)',
      'Disconnect NEXUS3',
      'Disconnect Tool (1)',
      'Disconnect Tool (2)',
    ]);
    expect(disconnectLabels([client('1', { pid: 100 })]).get('1')).toBe('Disconnect Claude Code');
  });
});

describe('newStatusLines', () => {
  const withStatus = (text: string, at: number) => client('a', { status: { text, at } });

  it('reads out a status that is new or changed, not one already seen', () => {
    const before = snapshot([], [withStatus('thinking…', 1)]);
    expect(newStatusLines(before, snapshot([], [withStatus('thinking…', 1)]))).toEqual([]);
    expect(newStatusLines(before, snapshot([], [withStatus('running tests…', 2)]))).toEqual([
      'Claude Code: running tests…',
    ]);
    // The same text sent again is a new message.
    expect(newStatusLines(before, snapshot([], [withStatus('thinking…', 3)]))).toEqual([
      'Claude Code: thinking…',
    ]);
    expect(newStatusLines(snapshot([], [a]), snapshot([], [withStatus('hi', 1)]))).toEqual([
      'Claude Code: hi',
    ]);
  });

  it('the first snapshot is a baseline; blank and disconnected clients say nothing', () => {
    expect(newStatusLines(null, snapshot([], [withStatus('thinking…', 1)]))).toEqual([]);
    const gone = client('a', { connected: false, status: { text: 'bye', at: 2 } });
    expect(newStatusLines(snapshot([], [a]), snapshot([], [gone]))).toEqual([]);
    expect(newStatusLines(snapshot([], [a]), snapshot([], [withStatus('   ', 2)]))).toEqual([]);
  });
});

describe('historyStateLabel: the words History shows for how a review ended', () => {
  /** An ended review of `decisions.length` files, each file decided as given. */
  const ended = (state: Parameters<typeof review>[3], decisions: HunkState[]) => {
    const base = review('r', 1, a, state);
    const file = base.files[0]!;
    return {
      ...base,
      files: decisions.map((fileDecision, i) => ({ ...file, path: `/w/${i}.ts`, fileDecision })),
    };
  };

  it('says "Accepted" only when nothing of it was rejected (undecided went in as accepted)', () => {
    expect(historyStateLabel(ended('accepted', ['accepted', 'accepted']))).toBe('Accepted');
    expect(historyStateLabel(ended('accepted', ['accepted', 'pending']))).toBe('Accepted');
  });

  it('says "Partially accepted" when a file, a hunk or a line of it was rejected', () => {
    // 2 of 4 hunks rejected in one file: the file is mixed.
    expect(historyStateLabel(ended('accepted', ['mixed']))).toBe('Partially accepted');
    expect(historyStateLabel(ended('accepted', ['accepted', 'rejected']))).toBe('Partially accepted');
    // A turn review kept in part (the rest reverted on disk) reads the same.
    expect(historyStateLabel(ended('accepted', ['pending', 'rejected', 'accepted']))).toBe(
      'Partially accepted',
    );
  });

  it('names every other outcome by its state', () => {
    expect(historyStateLabel(ended('rejected', ['rejected']))).toBe('Rejected');
    // An explicit reject of a review with accepted hunks is still a reject: nothing was applied.
    expect(historyStateLabel(ended('rejected', ['accepted', 'mixed']))).toBe('Rejected');
    expect(historyStateLabel(ended('cancelled', ['mixed']))).toBe('Cancelled');
    expect(historyStateLabel(ended('superseded', ['pending']))).toBe('Superseded');
  });
});

describe('historyStateLabel: a change already on disk says what its rejection did there', () => {
  type Revert = ReviewFileInfo['revert'];
  /** An ended review of written files (reviewed after the fact), each decided and reverted as given. */
  const afterTheFact = (state: Parameters<typeof review>[3], files: Array<[HunkState, Revert]>) => {
    const base = review('r', 1, a, state);
    const file = base.files[0]!;
    return {
      ...base,
      files: files.map(([fileDecision, revert], i) => ({
        ...file,
        path: `/w/${i}.ts`,
        fileDecision,
        written: true as const,
        ...(revert && { revert }),
      })),
    };
  };

  it('rejected and reverted: "Rejected — reverted"', () => {
    expect(historyStateLabel(afterTheFact('rejected', [['rejected', 'reverted']]))).toBe(
      'Rejected — reverted',
    );
    expect(
      historyStateLabel(
        afterTheFact('rejected', [
          ['pending', 'reverted'],
          ['rejected', 'reverted'],
        ]),
      ),
    ).toBe('Rejected — reverted');
  });

  it('kept in part, the rest reverted: "Partially reverted"', () => {
    expect(historyStateLabel(afterTheFact('accepted', [['mixed', 'reverted']]))).toBe('Partially reverted');
    expect(
      historyStateLabel(
        afterTheFact('accepted', [
          ['accepted', undefined],
          ['rejected', 'reverted'],
        ]),
      ),
    ).toBe('Partially reverted');
  });

  it('a revert refused because the file changed on disk never claims a revert', () => {
    const refused = historyStateLabel(afterTheFact('rejected', [['rejected', 'conflict']]));
    expect(refused).toBe('Rejected — not reverted (changed on disk)');
    expect(historyStateLabel(afterTheFact('accepted', [['mixed', 'conflict']]))).toBe(
      'Partially accepted — not reverted (changed on disk)',
    );
    expect(
      historyStateLabel(
        afterTheFact('rejected', [
          ['rejected', 'reverted'],
          ['rejected', 'conflict'],
        ]),
      ),
    ).toBe('Rejected — 1 of 2 files not reverted (changed on disk)');
  });

  it('a revert that failed says not reverted, without naming a cause it does not know', () => {
    expect(historyStateLabel(afterTheFact('rejected', [['rejected', 'failed']]))).toBe(
      'Rejected — not reverted',
    );
    expect(
      historyStateLabel(
        afterTheFact('rejected', [
          ['rejected', 'failed'],
          ['rejected', 'conflict'],
          ['rejected', 'reverted'],
        ]),
      ),
    ).toBe('Rejected — 2 of 3 files not reverted');
  });

  it('a client that writes its own files: DiffTray reverted nothing, and says so', () => {
    expect(historyStateLabel(afterTheFact('rejected', [['rejected', 'client']]))).toBe(
      'Rejected — left to the agent',
    );
    // Accepted whole, a client's own write is just accepted; in part, the client wrote what was kept.
    expect(historyStateLabel(afterTheFact('accepted', [['accepted', 'client']]))).toBe('Accepted');
    expect(historyStateLabel(afterTheFact('accepted', [['mixed', 'client']]))).toBe('Partially accepted');
  });

  it('written but nothing to put back (accepted whole, cancelled before a decision) reads as before', () => {
    expect(historyStateLabel(afterTheFact('accepted', [['accepted', undefined]]))).toBe('Accepted');
    expect(historyStateLabel(afterTheFact('cancelled', [['rejected', undefined]]))).toBe('Cancelled');
  });
});

describe('tabCount: counts that keep the tabs on one row', () => {
  it('shows up to 99, then "99+"', () => {
    expect([0, 7, 99, 100, 12345].map(tabCount)).toEqual(['0', '7', '99', '99+', '99+']);
  });
});

describe('connectedClients leaves out DiffTray itself', () => {
  it('lists agents, not the client of the merge reviews an undo puts up', () => {
    const own = client('d', { name: 'DiffTray', protocol: 'difftray', connectedAt: 1 });
    const watch = client('w', { name: 'Changes on disk', protocol: 'watch', connectedAt: 2 });
    const clients = connectedClients(snapshot([], [own, a, watch]));
    expect(clients.map((c) => c.id)).toEqual(['a', 'w']);
  });
});
