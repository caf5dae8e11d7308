/**
 * What Codex 0.171.0 writes for a parsed `apply_patch`, given the files' current texts: per file, the
 * text before and the text after, so DiffTray reviews exactly the bytes that would reach the disk. Where
 * Codex would fail (a file missing, lines not found, an empty patch) the answer is a failure: the hook
 * then gives no decision and Codex reports its own error or asks the person.
 *
 * Line endings, as Codex's update keeps them: a line ends at CRLF, LF or a lone CR; every line keeps its
 * own ending, a chunk's context lines included (their text too: only `-` lines go and `+` lines come);
 * lines a chunk writes take the file's first line ending (LF when it has none); and every line ends with one, so an updated file
 * always gets a final newline. Added files are written as the patch gives them (LF).
 */
import type { PatchHunk, UpdateChunk } from './patch-parse';
import { seekSequence } from './seek-sequence';

export type FileChangeKind = 'add' | 'update' | 'delete' | 'move';

export interface FileChange {
  kind: FileChangeKind;
  /** The path the patch names (relative to the hook's cwd, or absolute). */
  path: string;
  /** A move's destination; null otherwise. */
  movePath: string | null;
  /** The file's text before (null when an added file did not exist). */
  base: string | null;
  /** The text Codex writes (to movePath for a move); null for a delete. */
  text: string | null;
}

export type PatchApplication = { ok: true; files: FileChange[] } | { ok: false; reason: string };

/** A file's current text, or null when there is none. */
export type ReadText = (path: string) => string | null;

type LineEnding = '\n' | '\r\n' | '\r';

interface SourceLine {
  text: string;
  ending: LineEnding | null;
}

/** A file as Codex's updater sees it: lines with their own endings, and the ending new lines take. */
export interface SourceFile {
  lines: SourceLine[];
  preferred: LineEnding;
}

export function readSourceFile(contents: string): SourceFile {
  const lines: SourceLine[] = [];
  let preferred: LineEnding | null = null;
  let lineStart = 0;
  // Codex 0.171.0 ends a line at "\r\n", "\n" or a lone "\r" (checked against its binary).
  const breaks = /\r\n|\n|\r/g;
  for (let found = breaks.exec(contents); found !== null; found = breaks.exec(contents)) {
    const ending: LineEnding = found[0] === '\r\n' ? '\r\n' : found[0] === '\r' ? '\r' : '\n';
    preferred ??= ending;
    lines.push({ text: contents.slice(lineStart, found.index), ending });
    lineStart = found.index + ending.length;
  }
  if (lineStart < contents.length) lines.push({ text: contents.slice(lineStart), ending: null });
  return { lines, preferred: preferred ?? '\n' };
}

interface Replacement {
  start: number;
  oldLength: number;
  newLines: readonly string[];
}

class ApplyError extends Error {}

/**
 * A found chunk as the edits between its context lines: Codex 0.171.0 leaves context lines as the file
 * has them and orders these edits with other chunks' by position (checked against its binary). A context
 * line whose old line was dropped (the final-newline retry) is written like a `+` line.
 */
function splitAtContext(
  found: number,
  oldLength: number,
  newLines: readonly string[],
  contextFrom: readonly (number | null)[],
): Replacement[] {
  const edits: Replacement[] = [];
  let oldAt = 0;
  let newAt = 0;
  const edit = (oldEnd: number, newEnd: number) => {
    if (oldEnd > oldAt || newEnd > newAt) {
      edits.push({
        start: found + oldAt,
        oldLength: oldEnd - oldAt,
        newLines: newLines.slice(newAt, newEnd),
      });
    }
  };
  contextFrom.forEach((from, k) => {
    if (from === null || from >= oldLength || k >= newLines.length) return;
    edit(from, k);
    oldAt = from + 1;
    newAt = k + 1;
  });
  edit(oldLength, newLines.length);
  return edits;
}

function computeReplacements(
  lines: readonly string[],
  chunks: readonly UpdateChunk[],
  path: string,
): Replacement[] {
  const replacements: Replacement[] = [];
  let lineIndex = 0;
  for (const chunk of chunks) {
    if (chunk.changeContext !== null) {
      const found = seekSequence(lines, [chunk.changeContext], lineIndex, false);
      if (found === null) throw new ApplyError(`Failed to find context '${chunk.changeContext}' in ${path}`);
      lineIndex = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      // A chunk that only adds lines adds them at the very end of the file, wherever its context
      // was (checked against Codex 0.171.0's binary: after any last empty lines too).
      replacements.push({
        start: lines.length,
        oldLength: 0,
        newLines: chunk.newLines,
      });
      continue;
    }
    let pattern: readonly string[] = chunk.oldLines;
    let newLines: readonly string[] = chunk.newLines;
    let contextFrom: readonly (number | null)[] = chunk.contextFrom;
    let found = seekSequence(lines, pattern, lineIndex, chunk.isEndOfFile);
    if (found === null && pattern[pattern.length - 1] === '') {
      // A last empty old line stands for the file's final newline: retried without it.
      pattern = pattern.slice(0, -1);
      if (newLines[newLines.length - 1] === '') {
        newLines = newLines.slice(0, -1);
        contextFrom = contextFrom.slice(0, -1);
      }
      found = seekSequence(lines, pattern, lineIndex, chunk.isEndOfFile);
    }
    if (found === null) {
      throw new ApplyError(`Failed to find expected lines in ${path}:\n${chunk.oldLines.join('\n')}`);
    }
    replacements.push(...splitAtContext(found, pattern.length, newLines, contextFrom));
    lineIndex = found + pattern.length;
  }
  return replacements.sort((a, b) => a.start - b.start);
}

/** The text Codex writes when it applies `chunks` to `contents`. */
export function applyChunks(contents: string, chunks: readonly UpdateChunk[], path: string): string {
  const source = readSourceFile(contents);
  const texts = source.lines.map((line) => line.text);
  const out: SourceLine[] = [];
  let next = 0;
  for (const { start, oldLength, newLines } of computeReplacements(texts, chunks, path)) {
    // Overlapping replacements make Codex's own splice misbehave; refuse rather than guess.
    if (start < next) throw new ApplyError(`Overlapping changes in ${path}`);
    out.push(...source.lines.slice(next, start));
    out.push(...newLines.map((text) => ({ text, ending: source.preferred })));
    next = start + oldLength;
  }
  out.push(...source.lines.slice(next));
  return out.map((line) => line.text + (line.ending ?? source.preferred)).join('');
}

function applyHunk(hunk: PatchHunk, read: ReadText): FileChange {
  const base = read(hunk.path);
  switch (hunk.kind) {
    case 'add':
      return { kind: 'add', path: hunk.path, movePath: null, base, text: hunk.contents };
    case 'delete':
      if (base === null) throw new ApplyError(`Failed to delete file ${hunk.path}`);
      return { kind: 'delete', path: hunk.path, movePath: null, base, text: null };
    case 'update': {
      if (base === null) throw new ApplyError(`Failed to read file to update ${hunk.path}`);
      const text = applyChunks(base, hunk.chunks, hunk.path);
      const kind = hunk.movePath === null ? 'update' : 'move';
      return { kind, path: hunk.path, movePath: hunk.movePath, base, text };
    }
  }
}

/**
 * Applies hunks in order as Codex does. A patch that names one path twice (or moves onto a path it also
 * changes) is refused: one review per file is shown, and Codex would apply such hunks one on another.
 */
export function applyPatch(hunks: readonly PatchHunk[], read: ReadText): PatchApplication {
  if (hunks.length === 0) return { ok: false, reason: 'No files were modified.' };
  const seen = new Set<string>();
  try {
    const files = hunks.map((hunk) => {
      const change = applyHunk(hunk, read);
      for (const path of [change.path, change.movePath]) {
        if (path === null) continue;
        if (seen.has(path)) throw new ApplyError(`The patch changes ${path} more than once`);
        seen.add(path);
      }
      return change;
    });
    return { ok: true, files };
  } catch (error) {
    if (error instanceof ApplyError) return { ok: false, reason: error.message };
    throw error;
  }
}
