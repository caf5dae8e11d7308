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
  /** Git's "Binary files … differ" or "GIT binary patch" (`git diff --binary`): no text to review. */
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
  // jsdiff knows "Binary files … differ" but takes a "GIT binary patch" for an extended header line.
  const gitBinary = gitBinarySections(text);
  const binaryPatches = new Set(parsed.filter((entry) => entry.isGit).filter((_, index) => gitBinary[index]));
  // Trailing prose, an empty patch, or text that is no diff at all parse as entries with nothing in them.
  const entries = parsed.filter(
    (entry) =>
      entry.hunks.length > 0 ||
      entry.oldFileName !== undefined ||
      entry.newFileName !== undefined ||
      entry.isBinary ||
      binaryPatches.has(entry),
  );
  if (entries.length === 0) throw new MalformedPatchError('Malformed patch: no file changes found');
  const stripPrefixes = entries.every(usesGitPrefixes);
  const files: PatchFile[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const { oldFileName, newFileName } = entry;
    const binary = entry.isBinary === true || binaryPatches.has(entry);
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
    files.push({ path, oldExists, newExists, hunks: entry.hunks, binary });
  }
  return files;
}

/**
 * For each `diff --git` section of `text`, in order: whether it is a binary patch (`git diff --binary`),
 * i.e. says "GIT binary patch" before any hunk.
 */
function gitBinarySections(text: string): boolean[] {
  const sections: boolean[] = [];
  let inHeader = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      sections.push(false);
      inHeader = true;
    } else if (line.startsWith('@@')) inHeader = false;
    else if (inHeader && line.replace(/\r$/, '') === 'GIT binary patch') sections[sections.length - 1] = true;
  }
  return sections;
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
  const applied = applyStrictly(text, hunks, reverse);
  return 'text' in applied ? applied.text : undefined;
}

/**
 * applyHunksStrictly's work: the text, or the 1-based line of `text` where the hunks stop matching
 * (a line that differs, or where a hunk was to start or end).
 */
function applyStrictly(
  text: string,
  hunks: readonly StructuredPatchHunk[],
  reverse: boolean,
): { text: string } | { mismatchLine: number } {
  const lines = splitLines(text);
  const out: string[] = [];
  let position = 0;
  for (const hunk of hunks) {
    const start = (reverse ? hunk.newStart : hunk.oldStart) - 1;
    if (start < position || start > lines.length) return { mismatchLine: start + 1 };
    const body = hunkLines(hunk);
    const { prefix, suffix } = contextRuns(body);
    // As GNU patch reads it: less context on one side than the other means the hunk touches that end
    // of the file (a diff cut its context short there).
    if (prefix < suffix && start !== 0) return { mismatchLine: start + 1 };
    for (; position < start; position++) out.push(lines[position]!);
    for (const line of body) {
      const op = reverse && line.op !== ' ' ? (line.op === '-' ? '+' : '-') : line.op;
      if (op === '+') {
        out.push(line.text);
        continue;
      }
      if (lines[position] !== line.text) return { mismatchLine: position + 1 };
      if (op === ' ') out.push(line.text);
      position++;
    }
    if (suffix < prefix && position !== lines.length) return { mismatchLine: position + 1 };
  }
  for (; position < lines.length; position++) out.push(lines[position]!);
  return { text: out.join('') };
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
  | { side: 'neither'; why: 'missing' | 'exists' }
  /**
   * `line`: the first line (1-based) where the disk is neither side's, as far as either side matched;
   * past `fileLines` (the disk's line count) when the file ends before the patch does.
   */
  | { side: 'neither'; why: 'changed'; line?: number; fileLines?: number };

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
  // The line where each side stopped matching: the later one is where the file left the diff.
  let line: number | undefined;
  if (oldExists) {
    const forward = applyStrictly(disk, hunks, false);
    // A deletion's new side is no file at all: the hunks must remove every line.
    if ('text' in forward && (newExists || forward.text === '')) {
      return { side: 'old', oldText: disk, newText: newExists ? forward.text : undefined };
    }
    if ('mismatchLine' in forward) line = forward.mismatchLine;
  }
  if (newExists) {
    const backward = applyStrictly(disk, hunks, true);
    // A new file's old side is no file: the hunks must account for every line on disk.
    if ('text' in backward && (oldExists || backward.text === '')) {
      return { side: 'new', oldText: oldExists ? backward.text : undefined, newText: disk };
    }
    if ('mismatchLine' in backward) line = Math.max(line ?? 0, backward.mismatchLine);
  }
  if (!oldExists) return { side: 'neither', why: 'exists' };
  return {
    side: 'neither',
    why: 'changed',
    ...(line !== undefined && { line, fileLines: splitLines(disk).length }),
  };
}

/** Why a file is left out when the disk holds neither side of the diff, as the person reads it. */
export function neitherSideReason(judged: Extract<DiskJudgement, { side: 'neither' }>): string {
  switch (judged.why) {
    case 'missing':
      return 'not found on disk';
    case 'exists':
      return 'already exists on disk with other content';
    case 'changed': {
      const { line, fileLines = 0 } = judged;
      const since = 'changed on disk since the diff was made';
      if (line === undefined) return since;
      if (line <= fileLines) return `${since}: line ${line} does not match the patch`;
      return `${since}: the file ends at line ${fileLines}, before line ${line} of the patch`;
    }
  }
}
