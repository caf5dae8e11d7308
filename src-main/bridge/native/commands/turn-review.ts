/**
 * What a turn review holds: each file the turn followed whose text now differs from what the person last
 * saw of it (or, with `review: 'always'`, from its text before the turn), as a change already written
 * (base: that text, proposal: the disk), and what the review says.
 */
import path from 'node:path';
import { NATIVE_MAX_FILES_PER_CHANGE_SET } from '../../../../shared/native-protocol';
import { readConfinedSnapshot, sameContent, type DiskSnapshot } from '../../../core/disk/disk-snapshot';
import type { ReviewOutcome } from '../../../core/review/review-queue';
import type { OtherBase } from '../../../core/review/review-file';
import { turnKey, type AgentTurns, type Turn, type TurnFile } from '../../../core/turns/agent-turns';
import { messageOf } from '../../../../shared/error-message';
import type { ReviewedFile } from '../change-set';
import type { Session } from '../sessions';

export interface TurnChanges {
  reviewed: ReviewedFile[];
  /** Files left out, and why, for the review's description. */
  notes: string[];
  /** Some file now differs from what the person last saw of it. */
  unseen: boolean;
}

/**
 * What each file is compared with: what the person last saw of it ('lastSeen': only what they have not
 * seen is asked), or its text before the turn ('before': the whole turn, decided one by one or not).
 */
export type TurnBase = 'lastSeen' | 'before';

export async function turnChanges(
  turn: Turn,
  turns: AgentTurns,
  folders: readonly string[],
  against: TurnBase = 'lastSeen',
): Promise<TurnChanges> {
  const reviewed: ReviewedFile[] = [];
  const notes: string[] = [];
  let unseen = false;
  for (const [real, followed] of turn.files) {
    const shown = shownPath(turn.cwd, real);
    let now: DiskSnapshot;
    try {
      now = await readConfinedSnapshot(real, folders);
    } catch (error) {
      notes.push(`${shown}: not read (${messageOf(error)})`);
      continue;
    }
    const lastSeen = turns.lastSeen(followed);
    if (!lastSeen.known || !sameContent(lastSeen.snapshot, now)) unseen = true;
    const seen = against === 'before' ? followed.before : lastSeen;
    if (!seen.known) {
      notes.push(`${shown}: ${seen.why}`);
      continue;
    }
    const base = seen.snapshot;
    if (sameContent(base, now)) continue;
    const opaque = [base, now].find((side) => side.exists && side.kind === 'opaque');
    if (opaque?.exists && opaque.kind === 'opaque') {
      notes.push(`${shown}: ${opaque.why}, not reviewed`);
      continue;
    }
    if (reviewed.length >= NATIVE_MAX_FILES_PER_CHANGE_SET) {
      notes.push(`${shown}: not reviewed, one review holds at most ${NATIVE_MAX_FILES_PER_CHANGE_SET} files`);
      continue;
    }
    const otherBase = otherBaseOf(followed, against);
    reviewed.push({
      kind: 'review',
      path: shown,
      real,
      disk: 'new_side',
      base,
      proposedText: now.exists && now.kind === 'text' ? now.text : '',
      onDisk: now,
      deletes: !now.exists,
      ...(otherBase && { otherBase }),
    });
  }
  return { reviewed, notes, unseen };
}

/**
 * For a file the person decided during the turn, the starting point the review does not compare with:
 * the file before the turn, or what they accepted of it; none when the two are the same or not text.
 */
function otherBaseOf(followed: TurnFile, against: TurnBase): OtherBase | undefined {
  const { before, reviewed } = followed;
  if (!before.known || !reviewed || sameContent(before.snapshot, reviewed)) return undefined;
  const text = against === 'before' ? textOf(reviewed) : textOf(before.snapshot);
  if (text === undefined) return undefined;
  return { kind: against === 'before' ? 'yourReview' : 'turnStart', text };
}

/** A snapshot's text, '' for no file; undefined when it is not text. */
function textOf(snapshot: DiskSnapshot): string | undefined {
  if (!snapshot.exists) return '';
  return snapshot.kind === 'text' ? snapshot.text : undefined;
}

/** "Claude Code · shop: fix the cart total" — the agent, its folder and the turn's first prompt line. */
export function turnTitle(agentName: string, turn: Pick<Turn, 'cwd' | 'prompt'>): string {
  const folder = path.basename(turn.cwd) || turn.cwd;
  return `${agentName} · ${folder}: ${turn.prompt ?? 'what its turn wrote'}`;
}

export function turnDescription(agentName: string, notes: readonly string[], against: TurnBase): string {
  const what =
    against === 'before'
      ? `Everything ${agentName} wrote during its turn, against the files before the turn. Keep what you ` +
        'want: what you reject is put back on disk as it was before the turn.'
      : `Written by ${agentName} during its turn, without a review in DiffTray. Keep what you want: what ` +
        'you reject is put back on disk as it was before the turn, or as you accepted it during the turn.';
  return [
    `${what} Your comments and note go to ${agentName}, which goes on with them; keeping everything ` +
      'without a word ends its turn.',
    ...(notes.length > 0 ? ['', 'Left out:', ...notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
}

/** `file` relative to the agent's folder with forward slashes; absolute when outside it. */
function shownPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  if (cwd === '' || relative.startsWith('..') || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join('/');
}

/**
 * A review of an agent's edit, decided during its turn (a per-edit review through its hooks): the text
 * the person accepted is what they last saw of that file, so the turn review does not ask it again.
 */
export function noteEditDecided(
  session: Session,
  reviewed: readonly ReviewedFile[],
  outcome: ReviewOutcome,
  turns: AgentTurns,
): void {
  const agentSessionId = session.identity.agent_session_id;
  if (agentSessionId === undefined || outcome.kind !== 'accepted') return;
  const turn = turns.find(turnKey(session.name, agentSessionId));
  if (!turn) return;
  const finals = new Map(outcome.files.map((file) => [file.path, file]));
  for (const file of reviewed) {
    const final = finals.get(file.real);
    if (!final) continue;
    const gone = file.deletes && final.finalText === '';
    // Every change rejected: the file stays as it was (a rejected new file is never created).
    const seen = !final.changed
      ? file.base
      : gone
        ? ({ exists: false } as const)
        : textSnapshot(final.finalText);
    turns.noteReviewed(turn, file.real, seen);
  }
}

const textSnapshot = (text: string) => ({ exists: true, kind: 'text', text }) as const;
