/**
 * The undo journal (what DiffTray wrote, kept to be undone): its files on disk, its bounds by bytes and
 * age, reading it back after a restart, and what it does with files it did not write.
 */
import { lstatSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UndoJournal, type PreviousState } from '../../src-main/core/undo/undo-journal';
import { UNDO_JOURNAL_MAX_AGE_MS } from '../../shared/limits';
import { makeTempDir } from '../support/temp';

let cleanup: () => void;
let home: string;
let dir: string;
let clock: number;
let logged: string[];

const before = (text: string, mode = 0o644): PreviousState => ({
  exists: true,
  bytes: Buffer.from(text, 'utf8'),
  mode,
});
const written = (text: string) => ({ hash: 'a'.repeat(64), text });
const open = (options: { maxBytes?: number; maxAgeMs?: number } = {}) =>
  new UndoJournal(dir, { now: () => clock, log: (m) => logged.push(m), ...options });

beforeEach(() => {
  ({ dir: home, cleanup } = makeTempDir('undo-journal'));
  dir = path.join(home, 'undo');
  clock = 1_000_000;
  logged = [];
});
afterEach(() => cleanup());

describe('UndoJournal', () => {
  it('keeps each write in a 0600 file in a 0700 folder, and reads it back after a restart', async () => {
    const journal = open();
    await journal.record('r1', '/ws/a.txt', before('old a\n', 0o755), written('new a\n'));
    await journal.record('r1', '/ws/b.txt', { exists: false }, written('new b\n'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const names = readdirSync(dir);
    expect(names).toHaveLength(2);
    for (const name of names) expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);

    const again = open();
    expect(again.runId).not.toBe(journal.runId);
    const [set] = again.sets();
    expect(set).toMatchObject({ reviewId: 'r1', thisRun: false, files: ['/ws/a.txt', '/ws/b.txt'] });
    const [a, b] = await again.entriesOf(set!.setId);
    expect(a!.previous).toEqual(before('old a\n', 0o755));
    expect(a!.writtenText).toBe('new a\n');
    expect(b!.previous).toEqual({ exists: false });
  });

  it('groups writes by review and run: r1 of an earlier run is not r1 of this one', async () => {
    await open().record('r1', '/ws/a.txt', before('x'), written('y'));
    const journal = open();
    await journal.record('r1', '/ws/b.txt', before('x'), written('y'));
    const sets = journal.sets();
    expect(sets.map((s) => [s.reviewId, s.thisRun, s.files])).toEqual([
      ['r1', true, ['/ws/b.txt']],
      ['r1', false, ['/ws/a.txt']],
    ]);
    expect((await journal.entriesOf(journal.setIdOf('r1'))).map((e) => e.path)).toEqual(['/ws/b.txt']);
  });

  it('drops the oldest reviews first, whole, once the bytes are over the limit', async () => {
    const journal = open({ maxBytes: 1500 });
    const big = 'x'.repeat(300);
    await journal.record('r1', '/ws/a.txt', before(big), written(big));
    clock += 1;
    await journal.record('r1', '/ws/b.txt', before(big), written(big));
    clock += 1;
    await journal.record('r2', '/ws/c.txt', before(big), written(big));
    expect(journal.sets().map((s) => s.reviewId)).toEqual(['r2']);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(
      open({ maxBytes: 1500 })
        .sets()
        .map((s) => s.files),
    ).toEqual([['/ws/c.txt']]);
  });

  it('does not keep a single write larger than the whole budget, and says so', async () => {
    const journal = open({ maxBytes: 100 });
    await journal.record('r1', '/ws/huge.txt', before('y'.repeat(200)), written('z'));
    expect(journal.sets()).toEqual([]);
    expect(logged.join('\n')).toMatch(/huge\.txt is too large to keep for undo/);
  });

  it('drops reviews older than the age limit, at start too', async () => {
    const journal = open();
    await journal.record('r1', '/ws/a.txt', before('a'), written('b'));
    clock += UNDO_JOURNAL_MAX_AGE_MS + 1;
    await journal.record('r2', '/ws/b.txt', before('a'), written('b'));
    expect(journal.sets().map((s) => s.reviewId)).toEqual(['r2']);

    clock += UNDO_JOURNAL_MAX_AGE_MS + 1;
    expect(open().sets()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('ages reviews out on its own timer, with nothing written meanwhile', async () => {
    const journal = new UndoJournal(dir, { now: () => clock, pruneEveryMs: 20 });
    try {
      await journal.record('r1', '/ws/a.txt', before('old'), written('new'));
      clock += UNDO_JOURNAL_MAX_AGE_MS + 1;
      const deadline = Date.now() + 10_000;
      while (journal.sets().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(journal.sets()).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      journal.close();
    }
  });

  it('lets go of the files put back only; the set is spent once all are back', async () => {
    const journal = open();
    await journal.record('r1', '/ws/a.txt', before('a before'), written('a after'));
    await journal.record('r1', '/ws/b.txt', before('b before'), written('b after'));
    const setId = journal.setIdOf('r1');
    await journal.release(setId, ['/ws/a.txt']);
    expect(journal.isSpent(setId)).toBe(false);
    expect((await journal.entriesOf(setId)).map((e) => e.path)).toEqual(['/ws/b.txt']);
    expect(open().sets()[0]).toMatchObject({ files: ['/ws/b.txt'], spent: false });
    await journal.release(setId, []);
    expect(await journal.entriesOf(setId)).toHaveLength(1);
    await journal.release(setId, ['/ws/b.txt']);
    expect(journal.isSpent(setId)).toBe(true);
  });

  it('an undone review keeps only a tombstone, which outlives a restart', async () => {
    const journal = open();
    await journal.record('r1', '/ws/a.txt', before('secret before'), written('after'));
    const setId = journal.setIdOf('r1');
    await journal.release(setId, ['/ws/a.txt']);
    expect(journal.isSpent(setId)).toBe(true);
    expect(await journal.entriesOf(setId)).toEqual([]);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(dir, files[0]!), 'utf8')).not.toContain('secret');
    expect(open().isSpent(setId)).toBe(true);
  });

  it('keeps no text in memory: an undo reads it back from the entry file, never through a link', async () => {
    const journal = open();
    await journal.record(
      'r1',
      '/ws/a.txt',
      before('kept on disk only'),
      written('new text kept on disk only'),
    );
    const setId = journal.setIdOf('r1');
    // Nothing of the texts kept on the object (white box: what it stores), only where they are.
    const stored = JSON.stringify(Reflect.get(journal, 'stored'));
    expect(stored).toContain('/ws/a.txt');
    expect(stored).not.toContain('new text kept on disk only');
    expect(stored).not.toContain(Buffer.from('kept on disk only').toJSON().data.join(','));
    const [entry] = await journal.entriesOf(setId);
    expect(entry!.previous).toEqual(before('kept on disk only'));
    expect(entry!.writtenText).toBe('new text kept on disk only');

    // The entry's file replaced by a link: not read through, and said.
    const [name] = readdirSync(dir);
    const { dir: elsewhere, cleanup: cleanupElsewhere } = makeTempDir('undo-elsewhere');
    try {
      const planted = path.join(elsewhere, 'planted.json');
      writeFileSync(planted, readFileSync(path.join(dir, name!), 'utf8').replace('new text', 'planted text'));
      rmSync(path.join(dir, name!));
      symlinkSync(planted, path.join(dir, name!));
      await expect(journal.entriesOf(setId)).rejects.toThrow(/could not be read back/);
    } finally {
      cleanupElsewhere();
    }
  });

  it('ignores, with a line in the log, files that do not parse or are not what it writes', async () => {
    await open().record('r1', '/ws/a.txt', before('a'), written('b'));
    writeFileSync(path.join(dir, '1-garbage.json'), '{not json');
    writeFileSync(
      path.join(dir, '2-wrong.json'),
      JSON.stringify({ v: 1, setId: 's', reviewId: 'r9', at: 5 }),
    );
    writeFileSync(
      path.join(dir, '3-relative.json'),
      JSON.stringify({
        v: 1,
        setId: 's',
        reviewId: 'r9',
        at: 5,
        path: 'relative.txt',
        previous: { exists: false },
        writtenHash: null,
        writtenText: null,
      }),
    );
    const journal = open();
    expect(journal.sets().map((s) => s.reviewId)).toEqual(['r1']);
    expect(logged.filter((line) => line.includes('ignored'))).toHaveLength(3);
  });

  it('never follows a symlink among its files', async () => {
    const { dir: elsewhere, cleanup: cleanupElsewhere } = makeTempDir('undo-elsewhere');
    try {
      const target = path.join(elsewhere, 'entry.json');
      // A well-formed entry, but reached through a link: not read.
      writeFileSync(
        target,
        JSON.stringify({
          v: 1,
          setId: 'planted',
          reviewId: 'r1',
          at: clock,
          path: '/ws/a.txt',
          previous: { exists: true, mode: 0o644, base64: Buffer.from('planted').toString('base64') },
          writtenHash: null,
          writtenText: null,
        }),
      );
      open();
      symlinkSync(target, path.join(dir, '1-link.json'));
      const journal = open();
      expect(journal.sets()).toEqual([]);
      expect(logged.join('\n')).toMatch(/ignored .*1-link\.json.*not a regular file/);
      // Left alone: neither the link nor what it points to is touched.
      expect(lstatSync(path.join(dir, '1-link.json')).isSymbolicLink()).toBe(true);
      expect(readFileSync(target, 'utf8')).toContain('planted');
    } finally {
      cleanupElsewhere();
    }
  });

  it('does not use its folder when a symlink stands in its place: nothing is written through it', async () => {
    const { dir: elsewhere, cleanup: cleanupElsewhere } = makeTempDir('undo-elsewhere');
    try {
      symlinkSync(elsewhere, dir);
      const journal = open();
      await journal.record('r1', '/ws/a.txt', before('a'), written('b'));
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(logged.join('\n')).toMatch(/is not a folder; what DiffTray writes is not kept for undo/);
      // Still undoable while this run lasts: kept in memory.
      expect(journal.sets().map((s) => s.reviewId)).toEqual(['r1']);
    } finally {
      cleanupElsewhere();
    }
  });
});
