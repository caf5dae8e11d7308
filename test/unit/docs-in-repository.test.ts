/**
 * The repository holds its own design: no comment or doc may send the reader to a file outside it. Two
 * kinds of citation did: the design notes kept beside the repository (the word DESIGN, as `DESIGN.md`,
 * `DESIGN §5` or `DESIGN:`), and relative paths that climb out of it (`../shared/...` from the root).
 * What they said is in docs/ (docs/protocols/, docs/SECURITY.md, docs/REVIEWING.md, docs/DEVELOPMENT.md).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');
const THIS_FILE = path.relative(ROOT, __filename).split(path.sep).join('/');

/** The design notes outside the repository, by the names comments gave them. */
const DESIGN_NOTES = /\bDESIGN\b/;
/** A relative path into a folder named shared (the repository has one; the notes' folder was another). */
const SHARED_PATH = /(?:\.\.\/)+shared\b/g;

/** Each line of `text` (a file at `file`, relative to the root) that cites something outside the root. */
export function outsideCitations(file: string, text: string): string[] {
  const folder = path.posix.dirname(file);
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const climbsOut = [...line.matchAll(SHARED_PATH)].some((match) =>
      path.posix.normalize(path.posix.join(folder, match[0])).startsWith('../'),
    );
    if (DESIGN_NOTES.test(line) || climbsOut) found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return found;
}

/** The tracked files that hold text (a NUL byte in the first 8 KB marks a binary file, as git decides). */
function trackedTextFiles(): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  return files.filter((file) => {
    try {
      return !readFileSync(path.join(ROOT, file)).subarray(0, 8000).includes(0);
    } catch {
      return false; // listed but not in this checkout (deleted, not yet committed)
    }
  });
}

describe('the repository cites nothing outside itself', () => {
  it('no tracked text file cites the outside design notes or a path that leaves the repository', () => {
    const files = trackedTextFiles().filter((file) => file !== THIS_FILE);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      outsideCitations(file, readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(offenders, `move what these cite into docs/ and point there:\n${offenders.join('\n')}`).toEqual(
      [],
    );
  });

  it('tells a citation that leaves the repository from an import of its own shared folder', () => {
    expect(outsideCitations('src-renderer/state/store.ts', "import { x } from '../shared/app-api';")).toEqual(
      [],
    );
    expect(outsideCitations('src-main/core/a.ts', "import { y } from '../../shared/limits';")).toEqual([]);
    expect(outsideCitations('README.md', 'the plan is in ../shared/notes.md')).toEqual([
      'README.md:1: the plan is in ../shared/notes.md',
    ]);
    expect(outsideCitations('src-main/core/a.ts', '// see ../../../shared/seeds/003.md')).toHaveLength(1);
    expect(outsideCitations('src-main/x.ts', ' * The keys (DESIGN §5), as remapped')).toHaveLength(1);
    expect(outsideCitations('docs/x.md', 'DESIGN.md says why')).toHaveLength(1);
    expect(outsideCitations('docs/x.md', 'designed with care')).toEqual([]);
  });
});
