/**
 * One file under review: its base and proposed texts, hunks, line-level decisions, and what is known
 * about the file on disk. The operations here are pure state changes; the queue orders and publishes them.
 */
import type {
  DiskState,
  HunkView,
  OtherBaseKind,
  ReviewFileContent,
  ReviewFileInfo,
  ReviewFileSummary,
} from '../../../shared/app-api';
import type { Hunk, HunkDecision } from '../../../shared/hunks';
import { computeHunks } from '../../../shared/hunks';
import type { HunkLineDecisions } from '../../../shared/line-decisions';
import {
  combinedState,
  composeText,
  hunkState,
  remapDecisions,
  uniformLineDecisions,
} from '../../../shared/line-decisions';
import { countConflicts, merge3 } from '../../../shared/merge3';
import type { DiskSnapshot } from '../disk/disk-snapshot';
import { sameContent } from '../disk/disk-snapshot';

export interface ProposedFile {
  /** Absolute path on disk. */
  path: string;
  /** What the proposal was made against: '' for a new file, nothing readable for a binary one. */
  base: DiskSnapshot;
  proposedText: string;
  /**
   * What the disk holds now, when that is not the base: a change the agent already wrote, reviewed
   * after the fact (rejected hunks are then reverted). Defaults to the base.
   */
  onDisk?: DiskSnapshot;
  /** A second text to compare the proposal with, read-only (a turn review's other starting point). */
  otherBase?: OtherBase;
  /** The client writes this file, and reverts it too (native `writer: 'client'`): DiffTray puts back nothing. */
  clientWrites?: true;
}

export interface OtherBase {
  kind: OtherBaseKind;
  text: string;
}

export interface FileState {
  path: string;
  base: DiskSnapshot;
  baseText: string;
  /** What must be on disk for a decision to be applied: the base, or the already-written proposal. */
  expectedOnDisk: DiskSnapshot;
  proposedText: string;
  hunks: Hunk[];
  lines: HunkLineDecisions[];
  /** The decision on a file with no hunks to decide: a binary file, or a new empty one. */
  wholeDecision: HunkDecision;
  contentRevision: number;
  disk: { state: DiskState; detectedAt?: number; snapshot?: DiskSnapshot };
  conflicts: number;
  otherBase?: OtherBase;
  /** See ProposedFile.clientWrites. */
  clientWrites?: true;
}

export class ReviewError extends Error {}

export function createFileState(file: ProposedFile): FileState {
  const baseText = file.base.exists && file.base.kind === 'text' ? file.base.text : '';
  const state: FileState = {
    path: file.path,
    base: file.base,
    baseText,
    expectedOnDisk: file.onDisk ?? file.base,
    proposedText: file.proposedText,
    hunks: [],
    lines: [],
    wholeDecision: 'pending',
    contentRevision: 1,
    disk: { state: 'unchanged' },
    conflicts: countConflicts(file.proposedText),
    ...(file.otherBase && { otherBase: file.otherBase }),
    ...(file.clientWrites && { clientWrites: true }),
  };
  setUndecidedHunks(state, computeHunks(baseText, file.proposedText));
  return state;
}

/** Whether the person decided anything in this file yet (a hunk, a line, or the whole file). */
export function hasDecisions(file: FileState): boolean {
  return file.wholeDecision !== 'pending' || file.lines.some((lines) => hunkState(lines) !== 'pending');
}

export function isBinary(file: FileState): boolean {
  return file.base.exists && file.base.kind === 'opaque';
}

/** Hunks up to this many lines a side share their undecided lines (a few hundred small objects at most). */
const SHARED_UNDECIDED_MAX_LINES = 16;
const sharedUndecided = new Map<number, HunkLineDecisions>();

/**
 * The undecided lines of `hunk`. A small hunk's are one frozen object shared by every hunk of its size,
 * so a thousand waiting reviews do not each hold their own: decisions replace lines, never write into
 * them (decideLines copies).
 */
function undecidedLines(hunk: Hunk): HunkLineDecisions {
  const removed = hunk.baseEnd - hunk.baseStart;
  const added = hunk.proposedEnd - hunk.proposedStart;
  if (removed > SHARED_UNDECIDED_MAX_LINES || added > SHARED_UNDECIDED_MAX_LINES) {
    return uniformLineDecisions(hunk, 'pending');
  }
  const key = removed * (SHARED_UNDECIDED_MAX_LINES + 1) + added;
  let lines = sharedUndecided.get(key);
  if (!lines) {
    const { removed: r, added: a } = uniformLineDecisions(hunk, 'pending');
    lines = Object.freeze({ removed: Object.freeze(r), added: Object.freeze(a) }) as HunkLineDecisions;
    sharedUndecided.set(key, lines);
  }
  return lines;
}

/** New hunks with nothing decided yet; a binary file has none. */
function setUndecidedHunks(file: FileState, hunks: Hunk[]): void {
  file.hunks = isBinary(file) ? [] : hunks;
  file.lines = file.hunks.map(undecidedLines);
}

/** A deep enough copy for undo: every field an operation replaces or mutates. */
export function cloneFileState(file: FileState): FileState {
  return {
    ...file,
    // Hunks are never changed in place, and a hunk's decisions are replaced, not written into (see
    // decideLines): unchanged entries stay shared, so a change can be found by identity (state-feed.ts).
    lines: [...file.lines],
    disk: { ...file.disk },
  };
}

function hunkAt(file: FileState, index: number): Hunk {
  const hunk = Number.isInteger(index) && index >= 0 ? file.hunks[index] : undefined;
  if (!hunk) throw new ReviewError(`No hunk ${index} in ${file.path}`);
  return hunk;
}

export function decideHunks(file: FileState, indexes: readonly number[], decision: HunkDecision): void {
  if (indexes.length === 0) throw new ReviewError('No hunks given');
  const hunks = indexes.map((index) => hunkAt(file, index));
  for (const hunk of hunks) file.lines[hunk.index] = uniformLineDecisions(hunk, decision);
}

export function decideFile(file: FileState, decision: HunkDecision): void {
  file.wholeDecision = decision;
  file.lines = file.hunks.map((hunk) => uniformLineDecisions(hunk, decision));
}

/** Decides the chosen lines of one hunk; the others keep their decisions. */
export function decideLines(
  file: FileState,
  hunkIndex: number,
  selection: { base: readonly number[]; proposed: readonly number[] },
  decision: HunkDecision,
): void {
  const hunk = hunkAt(file, hunkIndex);
  const current = file.lines[hunkIndex]!;
  const lines = { removed: [...current.removed], added: [...current.added] };
  const inRange = (line: number, start: number, end: number) =>
    Number.isInteger(line) && line >= start && line < end;
  for (const line of selection.base) {
    if (!inRange(line, hunk.baseStart, hunk.baseEnd))
      throw new ReviewError(`Base line ${line} is not in hunk ${hunkIndex}`);
  }
  for (const line of selection.proposed) {
    if (!inRange(line, hunk.proposedStart, hunk.proposedEnd)) {
      throw new ReviewError(`Proposed line ${line} is not in hunk ${hunkIndex}`);
    }
  }
  if (selection.base.length + selection.proposed.length === 0) throw new ReviewError('No lines selected');
  for (const line of selection.base) lines.removed[line - hunk.baseStart] = decision;
  for (const line of selection.proposed) lines.added[line - hunk.proposedStart] = decision;
  file.lines[hunkIndex] = lines;
}

/**
 * The person edited the proposed side: hunks are recomputed. A hunk that is unchanged (same base range,
 * same proposed lines) keeps its decisions; a changed or new one is accepted, since the person wrote it.
 */
export function editProposal(file: FileState, proposedText: string): void {
  if (isBinary(file)) throw new ReviewError(`${file.path} is binary and cannot be edited`);
  const hunks = computeHunks(file.baseText, proposedText);
  file.lines = remapDecisions(file.proposedText, file.hunks, file.lines, proposedText, hunks);
  file.hunks = hunks;
  file.proposedText = proposedText;
  // A file left with no hunks (a new file edited down to nothing) is still the person's own text.
  file.wholeDecision = 'accepted';
  file.contentRevision++;
  file.conflicts = countConflicts(proposedText);
}

/** Records what is on disk now; the disk state says how it differs from what is expected there. */
export function noteDisk(file: FileState, snapshot: DiskSnapshot, now: number): boolean {
  const state: DiskState = sameContent(snapshot, file.expectedOnDisk)
    ? 'unchanged'
    : !snapshot.exists
      ? 'deleted'
      : !file.expectedOnDisk.exists
        ? 'created'
        : 'modified';
  if (
    state === file.disk.state &&
    (state === 'unchanged' || sameContent(snapshot, file.disk.snapshot ?? snapshot))
  ) {
    return false;
  }
  file.disk = state === 'unchanged' ? { state } : { state, detectedAt: now, snapshot };
  return true;
}

/**
 * Adopts the disk text as the new base and merges the proposal onto it. Conflicting regions become
 * marker blocks in the proposal, to be edited out before submit. Decisions start over: the hunks changed.
 */
export function rebase(file: FileState): void {
  const snapshot = file.disk.snapshot;
  if (file.disk.state === 'unchanged' || !snapshot)
    throw new ReviewError(`${file.path} has not changed on disk`);
  if (file.expectedOnDisk !== file.base) {
    throw new ReviewError(
      `${file.path} was already changed by the agent and changed again since: reject and propose again`,
    );
  }
  if (snapshot.exists && snapshot.kind === 'opaque') {
    const what = snapshot.why === 'too large' ? 'too large to merge' : `${snapshot.why} and cannot be merged`;
    throw new ReviewError(`${file.path} is now ${what}`);
  }
  const diskText = snapshot.exists ? snapshot.text : '';
  const merged = merge3(file.baseText, diskText, file.proposedText);
  file.base = snapshot;
  file.expectedOnDisk = snapshot;
  file.baseText = diskText;
  file.proposedText = merged.text;
  file.conflicts = merged.conflicts;
  file.disk = { state: 'unchanged' };
  setUndecidedHunks(file, computeHunks(diskText, merged.text));
  file.contentRevision++;
}

export interface FinalFile {
  path: string;
  /** What must still be on disk when the result is written (see FileState.expectedOnDisk). */
  expectedOnDisk: DiskSnapshot;
  /** False when the file keeps its base content (everything rejected). */
  changed: boolean;
  baseText: string;
  finalText: string;
}

export function composeFinal(file: FileState): FinalFile {
  if (isBinary(file)) {
    const changed = file.wholeDecision !== 'rejected';
    const finalText = changed ? file.proposedText : '';
    return { path: file.path, expectedOnDisk: file.expectedOnDisk, changed, baseText: '', finalText };
  }
  // Nothing rejected composes to the proposal itself: the hunks are this file's own diff of its texts.
  const finalText = file.lines.some(rejectsAnyLine)
    ? composeText(file.baseText, file.proposedText, file.hunks, file.lines)
    : file.proposedText;
  // Creating an empty file changes nothing textually, yet is a change.
  const createsEmptyFile = !file.base.exists && file.hunks.length === 0 && file.wholeDecision !== 'rejected';
  const changed = finalText !== file.baseText || createsEmptyFile;
  return {
    path: file.path,
    expectedOnDisk: file.expectedOnDisk,
    changed,
    baseText: file.baseText,
    finalText,
  };
}

function rejectsAnyLine(lines: HunkLineDecisions): boolean {
  return lines.removed.includes('rejected') || lines.added.includes('rejected');
}

/** One hunk as the person sees it: where it is, what is proposed, and what was decided. */
export function hunkView(file: FileState, index: number): HunkView {
  const lines = file.lines[index]!;
  const decision = hunkState(lines);
  const hunk = file.hunks[index]!;
  return decision === 'mixed' ? { ...hunk, decision, lines } : { ...hunk, decision };
}

export function hunkViews(file: FileState): HunkView[] {
  return file.hunks.map((_, i) => hunkView(file, i));
}

export function fileInfo(file: FileState): ReviewFileInfo {
  const binary = isBinary(file);
  return {
    path: file.path,
    isNewFile: !file.base.exists,
    binary,
    ...(binary && file.base.exists && file.base.kind === 'opaque' && { binarySize: file.base.size }),
    fileDecision:
      file.hunks.length === 0
        ? file.wholeDecision
        : combinedState(file.lines.map((lines) => hunkState(lines))),
    contentRevision: file.contentRevision,
    hunkCount: file.hunks.length,
    disk:
      file.disk.detectedAt === undefined
        ? { state: file.disk.state }
        : { state: file.disk.state, detectedAt: file.disk.detectedAt },
    conflicts: file.conflicts,
    ...(file.otherBase && { otherBase: file.otherBase.kind }),
    // What a decision must find on disk is not the base: the change was written before it was reviewed.
    ...(file.expectedOnDisk !== file.base && {
      written: true,
      // Known from the start: rejected, this change is the client's to put back, not DiffTray's.
      ...(file.clientWrites && { revert: 'client' as const }),
    }),
  };
}

export function fileSummary(file: FileState): ReviewFileSummary {
  return { ...fileInfo(file), hunks: hunkViews(file) };
}

export function fileContent(file: FileState): ReviewFileContent {
  const snapshot = file.disk.snapshot;
  return {
    path: file.path,
    contentRevision: file.contentRevision,
    baseText: file.baseText,
    proposedText: file.proposedText,
    ...(file.disk.state !== 'unchanged' &&
      snapshot && { diskText: snapshot.exists && snapshot.kind === 'text' ? snapshot.text : '' }),
    ...(file.otherBase && { otherBaseText: file.otherBase.text }),
  };
}
