import { describe, expect, it } from 'vitest';
import { AgentTurns, MAX_FILES_PER_TURN, turnKey } from '../../../src-main/core/turns/agent-turns';
import type { DiskSnapshot } from '../../../src-main/core/disk/disk-snapshot';

const text = (value: string): DiskSnapshot => ({ exists: true, kind: 'text', text: value });
const key = turnKey('Claude Code', 's1');

describe('an agent’s turns', () => {
  it('keep each file’s first text before the turn, and what the person last saw of it', () => {
    const turns = new AgentTurns();
    const turn = turns.begin(key, '/w', '  \n Fix the cart total \nand more');
    expect(turn.prompt).toBe('Fix the cart total');
    turns.noteBefore(turn, '/w/a', text('one\n'));
    turns.noteBefore(turn, '/w/a', text('written meanwhile\n'));
    expect(turns.lastSeen(turn.files.get('/w/a')!)).toEqual({ known: true, snapshot: text('one\n') });
    turns.noteReviewed(turn, '/w/a', text('two\n'));
    expect(turns.lastSeen(turn.files.get('/w/a')!)).toEqual({ known: true, snapshot: text('two\n') });
    // A file the turn does not follow is not made followed by a decision about it.
    turns.noteReviewed(turn, '/w/b', text('x'));
    expect(turn.files.has('/w/b')).toBe(false);
  });

  it('a new prompt lets go of the last turn and its bytes', () => {
    const turns = new AgentTurns();
    turns.noteBefore(turns.turnOf(key, '/w'), '/w/a', text('x'.repeat(1000)));
    expect(turns.keptBytes).toBe(1000);
    const next = turns.begin(key, '/w', 'next');
    expect(next.files.size).toBe(0);
    expect(turns.keptBytes).toBe(0);
  });

  it('stay within their byte budget: past it a file’s earlier text is unknown, and said so', () => {
    const turns = new AgentTurns(Date.now, 100);
    const turn = turns.turnOf(key, '/w');
    turns.noteBefore(turn, '/w/a', text('a'.repeat(80)));
    turns.noteBefore(turn, '/w/b', text('b'.repeat(80)));
    expect(turns.keptBytes).toBe(80);
    const lost = turns.lastSeen(turn.files.get('/w/b')!);
    expect(lost).toMatchObject({ known: false });
    expect(!lost.known && lost.why).toMatch(/were full/);
    // A reviewed text that does not fit is not kept: the earlier one is compared with again.
    turns.noteReviewed(turn, '/w/a', text('c'.repeat(90)));
    expect(turns.lastSeen(turn.files.get('/w/a')!)).toEqual({ known: true, snapshot: text('a'.repeat(80)) });
    expect(turns.keptBytes).toBe(80);
  });

  it('follow a bounded number of files and turns', () => {
    const turns = new AgentTurns();
    const turn = turns.turnOf(key, '/w');
    for (let i = 0; i <= MAX_FILES_PER_TURN; i++) turns.noteBefore(turn, `/w/${i}`, { exists: false });
    expect(turn.files.size).toBe(MAX_FILES_PER_TURN);
    for (let i = 0; i < 100; i++) turns.begin(turnKey('agent', String(i)), '/w', undefined);
    expect(turns.find(key)).toBeUndefined();
    expect(turns.find(turnKey('agent', '99'))).toBeDefined();
  });
});
