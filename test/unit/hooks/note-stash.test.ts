/**
 * Notes kept for after-tool hooks, on real files: one note per call, taken once; a FIFO or a link planted
 * where a note would be is never read (and never hangs the hook).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepNote, takeNote, type NoteKey } from '../../../src-main/cli/hooks/note-stash';
import { makeTempDir } from '../../support/temp';

let temp: ReturnType<typeof makeTempDir>;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  temp = makeTempDir('notes');
  env = { DIFFTRAY_HOME: path.join(temp.dir, '.difftray') };
});
afterEach(() => temp.cleanup());

const key: NoteKey = { agent: 'gemini', sessionId: 's1', toolName: 'replace', subject: 'notes.md' };
const folder = () => path.join(temp.dir, '.difftray', 'hook-notes');

describe('notes for after-tool hooks', () => {
  it('keeps one note per call, private, and gives it once', () => {
    keepNote(env, key, 'Rejected: line 8.');
    expect(takeNote(env, { ...key, sessionId: 's2' })).toBeUndefined();
    expect(takeNote(env, { ...key, subject: 'other.md' })).toBeUndefined();
    const [name] = readdirSync(folder());
    expect(statSync(path.join(folder(), name!)).mode & 0o777).toBe(0o600);
    expect(statSync(folder()).mode & 0o777).toBe(0o700);
    expect(takeNote(env, key)).toBe('Rejected: line 8.');
    expect(takeNote(env, key)).toBeUndefined();
  });

  it("a FIFO or a link in a note's place is not read", () => {
    keepNote(env, key, 'real');
    const [name] = readdirSync(folder());
    const file = path.join(folder(), name!);
    const elsewhere = path.join(temp.dir, 'elsewhere.txt');
    writeFileSync(elsewhere, 'planted');
    execFileSync('rm', [file]);
    symlinkSync(elsewhere, file);
    expect(takeNote(env, key)).toBeUndefined();
    execFileSync('rm', ['-f', file]);
    execFileSync('mkfifo', [file]);
    expect(takeNote(env, key)).toBeUndefined();
  });
});
