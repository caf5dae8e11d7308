/**
 * Unified diffs: parsed with jsdiff's `parsePatch` (the `diff` package), then applied strictly.
 *
 * Strict means every hunk must match the text at exactly the lines its header names, context and
 * removed lines byte for byte (line endings included). No fuzz, no offsets: a hunk that only fits
 * somewhere else means the file changed since the diff was made, which is a conflict, not a guess.
 * Applied backwards, the same check tells whether a text is the diff's new side (already applied).
 */
import { parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { splitLines } from './hunks';
import { messageOf } from './error-message';

export class MalformedPatchError extends Error {}

export interface PatchFile {
  /** The path to show and answer with: the new name, or the old one for a deletion. No a/ b/ prefix. */
  path: string;
  /** False for a new file (`--- /dev/null`, `new file mode`). */
  oldExists: boolean;
  /** False for a deleted file (`+++ /dev/null`, `deleted file mode`). */
  newExists: boolean;
  hunks: StructuredPatchHunk[];
  /** Git's "Binary files … differ": no text to review. */
  binary: boolean;
}

const DEV_NULL = '/dev/null';

/**
 * The files of a unified diff, in order. Throws MalformedPatchError for text that is not a diff,
 * hunks whose line counts do not add up, hunks without file headers, renames and copies (not
 * supported: use `git diff --no-renames`), and a file named twice.
 */
export function parseUnifiedDiff(text: string): PatchFile[] {
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(text);
  } catch (error) {
    throw new MalformedPatchError(`Malformed patch: ${messageOf(error)}`);
  }
  // Trailing prose, an empty patch, or text that is no diff at all parse as entries with nothing in them.
  const entries = parsed.filter(
    (entry) =>
      entry.hunks.length > 0 ||
      entry.oldFileName !== undefined ||
      entry.newFileName !== undefined ||
      entry.isBinary,
  );
  if (entries.length === 0) throw new MalformedPatchError('Malformed patch: no file changes found');
  const stripPrefixes = entries.every(usesGitPrefixes);
  const files: PatchFile[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const { oldFileName, newFileName } = entry;
    if (oldFileName === undefined || newFileName === undefined) {
      throw new MalformedPatchError('Malformed patch: a hunk has no "---"/"+++" file header');
    }
    const oldExists = oldFileName !== DEV_NULL && entry.isCreate !== true;
    const newExists = newFileName !== DEV_NULL && entry.isDelete !== true;
    if (!oldExists && !newExists) {
      throw new MalformedPatchError(
        'Malformed patch: a file is both created and deleted (/dev/null on both sides)',
      );
    }
    const oldPath =
      oldExists || oldFileName !== DEV_NULL ? strip(oldFileName, 'a/', stripPrefixes) : undefined;
    const newPath =
      newExists || newFileName !== DEV_NULL ? strip(newFileName, 'b/', stripPrefixes) : undefined;
    if (
      entry.isRename ||
      entry.isCopy ||
      (oldPath !== undefined && newPath !== undefined && oldPath !== newPath)
    ) {
      throw new MalformedPatchError(
        `Renamed or copied files are not supported (${oldPath} → ${newPath}); make the diff with --no-renames`,
      );
    }
    const path = (newExists ? newPath : oldPath) ?? newPath ?? oldPath;
    if (!path) throw new MalformedPatchError('Malformed patch: a file header names no file');
    if (seen.has(path)) throw new MalformedPatchError(`Malformed patch: ${path} appears twice`);
    seen.add(path);
    checkHunkOrder(path, entry.hunks);
    files.push({ path, oldExists, newExists, hunks: entry.hunks, binary: entry.isBinary === true });
  }
  return files;
}

/** `git diff` names files `a/<path>` and `b/<path>`; `git diff --no-prefix` and `diff -u` do not. */
function usesGitPrefixes(entry: StructuredPatch): boolean {
  if (entry.isGit) return true;
  const { oldFileName: oldName, newFileName: newName } = entry;
  return (
    (oldName === DEV_NULL || oldName?.startsWith('a/') === true) &&
    (newName === DEV_NULL || newName?.startsWith('b/') === true) &&
    !(oldName === DEV_NULL && newName === DEV_NULL)
  );
}

function strip(name: string, prefix: string, stripPrefixes: boolean): string {
  return stripPrefixes && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function checkHunkOrder(path: string, hunks: readonly StructuredPatchHunk[]): void {
  let end = 0;
  for (const hunk of hunks) {
    if (!Number.isInteger(hunk.oldStart) || !Number.isInteger(hunk.newStart)) {
      throw new MalformedPatchError(`Malformed patch: a hunk header of ${path} has no line numbers`);
    }
    const start = hunk.oldStart - 1;
    if (start < end)
      throw new MalformedPatchError(`Malformed patch: hunks of ${path} overlap or are out of order`);
    end = start + hunk.oldLines;
  }
}

interface HunkLine {
  op: ' ' | '-' | '+';
  /** The line with its terminator: "\n" unless a "\ No newline at end of file" marker follows. */
  text: string;
}

function hunkLines(hunk: StructuredPatchHunk): HunkLine[] {
  const lines: HunkLine[] = [];
  for (const raw of hunk.lines) {
    const op = raw[0];
    if (op === '\\') {
      const last = lines[lines.length - 1];
      if (last && last.text.endsWith('\n')) last.text = last.text.slice(0, -1);
      continue;
    }
    // parsePatch reads an empty line inside a hunk as empty context (some tools strip the space).
    if (op === undefined) lines.push({ op: ' ', text: '\n' });
    else if (op === ' ' || op === '-' || op === '+') lines.push({ op, text: `${raw.slice(1)}\n` });
  }
  return lines;
}

function contextRuns(body: readonly HunkLine[]): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < body.length && body[prefix]!.op === ' ') prefix++;
  let suffix = 0;
  while (suffix < body.length - prefix && body[body.length - 1 - suffix]!.op === ' ') suffix++;
  return { prefix, suffix };
}

/**
 * Applies `hunks` to `text` at exactly the lines they name (`reverse`: from the new side back to the
 * old one). Undefined when any context or removed line differs: the text is not that side of the diff.
 * A hunk with less context after its changes than before must end at the end of the file (and the
 * other way round, start at its beginning), so an addition at the end is not found again after itself.
 */
export function applyHunksStrictly(
  text: string,
  hunks: readonly StructuredPatchHunk[],
  reverse = false,
): string | undefined {
  const lines = splitLines(text);
  const out: string[] = [];
  let position = 0;
  for (const hunk of hunks) {
    const start = (reverse ? hunk.newStart : hunk.oldStart) - 1;
    if (start < position || start > lines.length) return undefined;
    const body = hunkLines(hunk);
    const { prefix, suffix } = contextRuns(body);
    // As GNU patch reads it: less context on one side than the other means the hunk touches that end
    // of the file (a diff cut its context short there).
    if (prefix < suffix && start !== 0) return undefined;
    for (; position < start; position++) out.push(lines[position]!);
    for (const line of body) {
      const op = reverse && line.op !== ' ' ? (line.op === '-' ? '+' : '-') : line.op;
      if (op === '+') {
        out.push(line.text);
        continue;
      }
      if (lines[position] !== line.text) return undefined;
      if (op === ' ') out.push(line.text);
      position++;
    }
    if (suffix < prefix && position !== lines.length) return undefined;
  }
  for (; position < lines.length; position++) out.push(lines[position]!);
  return out.join('');
}

/** The patch hunk whose old-side range holds the 0-based base line range [start, end). */
export function patchHunkAt(
  hunks: readonly StructuredPatchHunk[],
  baseStart: number,
  baseEnd: number,
): number | undefined {
  for (let i = 0; i < hunks.length; i++) {
    const hunk = hunks[i]!;
    const start = hunk.oldStart - 1;
    const end = start + hunk.oldLines;
    if (baseStart >= start && baseEnd <= end) return i;
  }
  return undefined;
}

/** Whether `patch` looks like git's output (`diff --git`), whose paths are relative to the repository root. */
export function isGitStylePatch(patch: string): boolean {
  return /^diff --git /m.test(patch);
}

/** A file's two sides; `undefined`: the file does not exist on that side. */
export interface Sides {
  oldText: string | undefined;
  newText: string | undefined;
}

export type DiskJudgement =
  | ({ side: 'old' } & Sides)
  | ({ side: 'new' } & Sides)
  | { side: 'neither'; why: 'missing' | 'exists' | 'changed' };

/**
 * Which side of the diff the disk holds for `file` (`disk` undefined: no such file): the old side (not
 * applied yet), the new side (already applied, e.g. an agent wrote it and this is its `git diff`), or
 * neither (changed since the diff was made, missing, or in the way of a file the diff creates).
 */
export function judgeDisk(file: PatchFile, disk: string | undefined): DiskJudgement {
  const { oldExists, newExists, hunks } = file;
  if (disk === undefined) {
    if (!oldExists) {
      const newText = applyHunksStrictly('', hunks);
      return newText === undefined
        ? { side: 'neither', why: 'changed' }
        : { side: 'old', oldText: undefined, newText };
    }
    if (!newExists) {
      const oldText = applyHunksStrictly('', hunks, true);
      return oldText === undefined
        ? { side: 'neither', why: 'changed' }
        : { side: 'new', oldText, newText: undefined };
    }
    return { side: 'neither', why: 'missing' };
  }
  if (oldExists) {
    const forward = applyHunksStrictly(disk, hunks);
    // A deletion's new side is no file at all: the hunks must remove every line.
    if (forward !== undefined && (newExists || forward === '')) {
      return { side: 'old', oldText: disk, newText: newExists ? forward : undefined };
    }
  }
  if (newExists) {
    const backward = applyHunksStrictly(disk, hunks, true);
    // A new file's old side is no file: the hunks must account for every line on disk.
    if (backward !== undefined && (oldExists || backward === '')) {
      return { side: 'new', oldText: oldExists ? backward : undefined, newText: disk };
    }
  }
  return { side: 'neither', why: oldExists ? 'changed' : 'exists' };
}
