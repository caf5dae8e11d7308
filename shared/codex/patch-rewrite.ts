/**
 * The patch DiffTray answers Codex with: for each file the person kept something of, the hunk that makes
 * Codex write exactly the composed text (the accepted parts), byte for byte. Files fully rejected are
 * left out by the caller (an update whose text is its base is left out here too). Every hunk is checked by applying it the way Codex does (patch-apply.ts); a
 * text Codex cannot be made to write — an updated file without a final newline, a line ending that is not
 * the file's first, a line ending in "\r" — is a failure, and the hook then gives no decision.
 */
import { diffLines, type LineChange } from '../diff';
import { applyPatch, readSourceFile } from './patch-apply';
import { parsePatch } from './patch-parse';
import { rustTrim } from './rust-text';
import { seekSequence } from './seek-sequence';

export type AcceptedFile =
  | { kind: 'add'; path: string; text: string }
  | { kind: 'delete'; path: string }
  /** An update, or with movePath a move; `base` is the file's text now, `text` the composed text. */
  | { kind: 'update'; path: string; movePath: string | null; base: string; text: string };

export type PatchRewrite = { ok: true; patch: string } | { ok: false; reason: string };

/** Equal lines kept around each change, as Codex's own patches carry. */
const CONTEXT = 3;

const PATCH_START = '*** Begin Patch';
const PATCH_END = '*** End Patch';

class RewriteError extends Error {}

/** A path survives Codex's header parsing only without line breaks or white space at its ends. */
function checkPath(path: string): string {
  if (path === '' || /[\r\n]/.test(path) || rustTrim(path) !== path) {
    throw new RewriteError(`Codex cannot be given the path ${JSON.stringify(path)}`);
  }
  return path;
}

function addHunk(path: string, text: string): string[] {
  if (text !== '' && !text.endsWith('\n'))
    throw new RewriteError(`${path}: an added file ends with a newline`);
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  if (lines.some((line) => line.endsWith('\r')))
    throw new RewriteError(`${path}: an added file has LF endings`);
  return [`*** Add File: ${checkPath(path)}`, ...lines.map((line) => `+${line}`)];
}

/** One chunk's lines: base [start, end) with the changes inside it, and where it must be found. */
function chunkLines(
  baseTexts: readonly string[],
  composedTexts: readonly string[],
  changes: readonly LineChange[],
  start: number,
  end: number,
): string[] {
  const out: string[] = ['@@'];
  let at = start;
  for (const change of changes) {
    for (; at < change.baseStart; at++) out.push(` ${baseTexts[at] ?? ''}`);
    for (let i = change.baseStart; i < change.baseEnd; i++) out.push(`-${baseTexts[i] ?? ''}`);
    for (let i = change.proposedStart; i < change.proposedEnd; i++) out.push(`+${composedTexts[i] ?? ''}`);
    at = change.baseEnd;
  }
  for (; at < end; at++) out.push(` ${baseTexts[at] ?? ''}`);
  return out;
}

/** Changes grouped into chunks: each group's base range with its context, groups never touching. */
function groupChanges(changes: readonly LineChange[], baseLength: number) {
  const groups: { start: number; end: number; changes: LineChange[] }[] = [];
  for (const change of changes) {
    const start = Math.max(0, change.baseStart - CONTEXT);
    const end = Math.min(baseLength, change.baseEnd + CONTEXT);
    const last = groups[groups.length - 1];
    if (last !== undefined && start <= last.end) {
      last.end = end;
      last.changes.push(change);
    } else groups.push({ start, end, changes: [change] });
  }
  return groups;
}

/** Chunks with enough context above that Codex's first match from the previous chunk lands on them. */
function updateChunks(base: string, text: string): string[] {
  const baseTexts = readSourceFile(base).lines.map((line) => line.text);
  const composed = readSourceFile(text);
  const composedTexts = composed.lines.map((line) => line.text);
  const changes = diffLines(baseTexts, composedTexts);
  // A move with no change to the text still needs one chunk: the first line, kept.
  if (changes.length === 0) changes.push({ baseStart: 0, baseEnd: 0, proposedStart: 0, proposedEnd: 0 });
  const out: string[] = [];
  let searchFrom = 0;
  for (const group of groupChanges(changes, baseTexts.length)) {
    let start = group.start;
    const old = () => baseTexts.slice(start, group.end);
    while (start > searchFrom && seekSequence(baseTexts, old(), searchFrom, false) !== start) start--;
    out.push(...chunkLines(baseTexts, composedTexts, group.changes, start, group.end));
    searchFrom = group.end;
  }
  return out;
}

/** The same file as one chunk replacing every line: the fallback when the chunks above miss. */
function wholeFileChunk(base: string, text: string): string[] {
  const oldLines = readSourceFile(base).lines.map((line) => `-${line.text}`);
  const newLines = readSourceFile(text).lines.map((line) => `+${line.text}`);
  return ['@@', ...oldLines, ...newLines];
}

/** Codex's update writes this file's text from `lines`; checked, since line endings can defeat it. */
function writesExactly(file: Extract<AcceptedFile, { kind: 'update' }>, lines: readonly string[]): boolean {
  const parsed = parsePatch([PATCH_START, ...lines, PATCH_END, ''].join('\n'));
  if (!parsed.ok) return false;
  const applied = applyPatch(parsed.hunks, (path) => (path === file.path ? file.base : null));
  return applied.ok && applied.files.length === 1 && applied.files[0]?.text === file.text;
}

function updateHunk(file: Extract<AcceptedFile, { kind: 'update' }>): string[] {
  const header = [`*** Update File: ${checkPath(file.path)}`];
  if (file.movePath !== null) header.push(`*** Move to: ${checkPath(file.movePath)}`);
  if (file.text !== '' && !/[\r\n]$/.test(file.text)) {
    throw new RewriteError(`${file.path}: Codex always ends an updated file with a line break`);
  }
  for (const body of [updateChunks(file.base, file.text), wholeFileChunk(file.base, file.text)]) {
    const lines = [...header, ...body];
    if (writesExactly(file, lines)) return lines;
  }
  throw new RewriteError(`${file.path}: Codex cannot be made to write this text (line endings)`);
}

function hunkLines(file: AcceptedFile): string[] {
  switch (file.kind) {
    case 'add':
      return addHunk(file.path, file.text);
    case 'delete':
      return [`*** Delete File: ${checkPath(file.path)}`];
    case 'update':
      // Unchanged and not moved: nothing to write, and Codex refuses an update with no chunk.
      return file.movePath === null && file.text === file.base ? [] : updateHunk(file);
  }
}

/** The patch for the accepted files, in the order given. */
export function rewritePatch(files: readonly AcceptedFile[]): PatchRewrite {
  if (files.length === 0) return { ok: false, reason: 'Nothing was accepted' };
  try {
    const lines = files.flatMap(hunkLines);
    if (lines.length === 0) return { ok: false, reason: 'Nothing was accepted' };
    return { ok: true, patch: [PATCH_START, ...lines, PATCH_END, ''].join('\n') };
  } catch (error) {
    if (error instanceof RewriteError) return { ok: false, reason: error.message };
    throw error;
  }
}
