/**
 * Codex CLI's `apply_patch` text, parsed the way Codex 0.171.0 parses it (docs/protocols/other-agents.md,
 * "apply_patch grammar"), so DiffTray reviews exactly the hunks Codex would apply and refuses exactly the
 * patches Codex would refuse. Pure: paths stay as written (relative to the hook's `cwd`).
 */
import { rustLines, rustTrim as trim, rustTrimEnd } from './rust-text';

export interface UpdateChunk {
  /** The `@@ <line>` header's line, sought first: the chunk's old lines must come after it. */
  changeContext: string | null;
  /** The lines the chunk replaces (its ` ` and `-` lines), in order. */
  oldLines: string[];
  /** What replaces them (its ` ` and `+` lines). */
  newLines: string[];
  /**
   * For each new line, the index in oldLines of the context line it is (null for a `+` line): Codex
   * 0.171.0 keeps the file's own line there, text and ending, however loosely it matched.
   */
  contextFrom: (number | null)[];
  /** `*** End of File`: the old lines are sought only at the very end of the file. */
  isEndOfFile: boolean;
}

export type PatchHunk =
  | { kind: 'add'; path: string; contents: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; movePath: string | null; chunks: UpdateChunk[] };

export type ParsedPatch = { ok: true; hunks: PatchHunk[] } | { ok: false; reason: string };

const BEGIN_PATCH = '*** Begin Patch';
const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File: ';
const DELETE_FILE = '*** Delete File: ';
const UPDATE_FILE = '*** Update File: ';
const MOVE_TO = '*** Move to: ';
const END_OF_FILE = '*** End of File';
const CONTEXT_HEADER = '@@ ';
const EMPTY_CONTEXT_HEADER = '@@';

/** The heredoc openers Codex strips when a patch arrives wrapped in one (its "lenient" mode). */
const HEREDOC_OPENERS = ['<<EOF', "<<'EOF'", '<<"EOF"'];

class PatchError extends Error {}

function checkBoundaries(lines: readonly string[]): void {
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (first === undefined || trim(first) !== BEGIN_PATCH) {
    throw new PatchError("The first line of the patch must be '*** Begin Patch'");
  }
  if (lines.length < 2 || last === undefined || trim(last) !== END_PATCH) {
    throw new PatchError("The last line of the patch must be '*** End Patch'");
  }
}

/** The patch's lines between its markers, with a bare heredoc wrapper taken off as Codex does. */
function patchBody(text: string): string[] {
  const lines = rustLines(trim(text));
  try {
    checkBoundaries(lines);
    return lines.slice(1, -1);
  } catch (strictError) {
    const first = lines[0] ?? '';
    const last = lines[lines.length - 1] ?? '';
    if (!HEREDOC_OPENERS.includes(first) || !last.endsWith('EOF') || lines.length < 4) throw strictError;
    const inner = lines.slice(1, -1);
    checkBoundaries(inner);
    return inner.slice(1, -1);
  }
}

/** Parses a whole patch; `ok: false` when Codex would refuse it. */
export function parsePatch(text: string): ParsedPatch {
  try {
    const body = patchBody(text);
    const hunks: PatchHunk[] = [];
    let at = 0;
    while (at < body.length) {
      const { hunk, used } = parseHunk(body, at);
      hunks.push(hunk);
      at += used;
    }
    return { ok: true, hunks };
  } catch (error) {
    if (error instanceof PatchError) return { ok: false, reason: error.message };
    throw error;
  }
}

function parseHunk(lines: readonly string[], at: number): { hunk: PatchHunk; used: number } {
  const header = trim(lines[at] ?? '');
  if (header.startsWith(ADD_FILE)) {
    const path = header.slice(ADD_FILE.length);
    let contents = '';
    let used = 1;
    for (let i = at + 1; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (!line.startsWith('+')) break;
      contents += `${line.slice(1)}\n`;
      used++;
    }
    return { hunk: { kind: 'add', path, contents }, used };
  }
  if (header.startsWith(DELETE_FILE)) {
    return { hunk: { kind: 'delete', path: header.slice(DELETE_FILE.length) }, used: 1 };
  }
  if (header.startsWith(UPDATE_FILE)) return parseUpdate(lines, at, header.slice(UPDATE_FILE.length));
  throw new PatchError(
    `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
  );
}

function parseUpdate(lines: readonly string[], at: number, path: string): { hunk: PatchHunk; used: number } {
  let i = at + 1;
  // The move line is matched as written, without trimming (as Codex does).
  const moveLine = lines[i];
  const movePath = moveLine?.startsWith(MOVE_TO) ? moveLine.slice(MOVE_TO.length) : null;
  if (movePath !== null) i++;
  const chunks: UpdateChunk[] = [];
  while (i < lines.length) {
    const line = lines[i] ?? '';
    // Blank lines between chunks are skipped; a line starting "***" ends this file's hunk.
    if (trim(line) === '') {
      i++;
      continue;
    }
    if (line.startsWith('***')) break;
    const { chunk, used } = parseChunk(lines, i, chunks.length === 0);
    chunks.push(chunk);
    i += used;
  }
  if (chunks.length === 0) throw new PatchError(`Update file hunk for path '${path}' is empty`);
  return { hunk: { kind: 'update', path, movePath, chunks }, used: i - at };
}

function parseChunk(
  lines: readonly string[],
  at: number,
  firstChunk: boolean,
): { chunk: UpdateChunk; used: number } {
  // One header at most (0.171.0 refuses a second "@@" line before the chunk's lines).
  const first = lines[at] ?? '';
  let changeContext: string | null = null;
  let i = at;
  // "@@ " with only white space after it is a bare "@@" (checked against the 0.171.0 binary).
  if (rustTrimEnd(first) === EMPTY_CONTEXT_HEADER) i++;
  else if (first.startsWith(CONTEXT_HEADER)) {
    changeContext = first.slice(CONTEXT_HEADER.length);
    i++;
  } else if (!firstChunk) {
    // Only the first chunk of a file may leave out its "@@" header.
    throw new PatchError(`Expected update hunk to start with a @@ context marker, got: '${first}'`);
  }
  if (i >= lines.length) throw new PatchError('Update hunk does not contain any lines');
  const chunk: UpdateChunk = {
    changeContext,
    oldLines: [],
    newLines: [],
    contextFrom: [],
    isEndOfFile: false,
  };
  let changeLines = 0;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === END_OF_FILE) {
      if (changeLines === 0) throw new PatchError('Update hunk does not contain any lines');
      chunk.isEndOfFile = true;
      i++;
      break;
    }
    const rest = line.slice(1);
    if (line === '') {
      // An empty line inside a chunk is an empty context line.
      chunk.contextFrom.push(chunk.oldLines.length);
      chunk.oldLines.push('');
      chunk.newLines.push('');
    } else if (line.startsWith(' ')) {
      chunk.contextFrom.push(chunk.oldLines.length);
      chunk.oldLines.push(rest);
      chunk.newLines.push(rest);
    } else if (line.startsWith('+')) {
      chunk.contextFrom.push(null);
      chunk.newLines.push(rest);
    } else if (line.startsWith('-')) chunk.oldLines.push(rest);
    else if (changeLines === 0) {
      throw new PatchError(
        `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
      );
    } else break; // the next chunk (or file) starts here
    changeLines++;
  }
  return { chunk, used: i - at };
}
