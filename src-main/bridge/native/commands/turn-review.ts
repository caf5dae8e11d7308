/**
 * What a turn review holds: each file the turn followed whose text now differs from what the person last
 * saw of it, as a change already written (base: that text, proposal: the disk), and what the review says.
 */
import path from 'node:path';
import { NATIVE_MAX_FILES_PER_CHANGE_SET } from '../../../../shared/native-protocol';
import { readConfinedSnapshot, sameContent, type DiskSnapshot } from '../../../core/disk/disk-snapshot';
import type { ReviewOutcome } from '../../../core/review/review-queue';
import { turnKey, type AgentTurns, type Turn } from '../../../core/turns/agent-turns';
import { messageOf } from '../../../../shared/error-message';
import type { ReviewedFile } from '../change-set';
import type { Session } from '../sessions';

export interface TurnChanges {
  reviewed: ReviewedFile[];
  /** Files left out, and why, for the review's description. */
  notes: string[];
}

export async function turnChanges(
  turn: Turn,
  turns: AgentTurns,
  folders: readonly string[],
): Promise<TurnChanges> {
  const reviewed: ReviewedFile[] = [];
  const notes: string[] = [];
  for (const [real, followed] of turn.files) {
    const shown = shownPath(turn.cwd, real);
    let now: DiskSnapshot;
    try {
      now = await readConfinedSnapshot(real, folders);
    } catch (error) {
      notes.push(`${shown}: not read (${messageOf(error)})`);
      continue;
    }
    const seen = turns.lastSeen(followed);
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
    reviewed.push({
      kind: 'review',
      path: shown,
      real,
      disk: 'new_side',
      base,
      proposedText: now.exists && now.kind === 'text' ? now.text : '',
      onDisk: now,
      deletes: !now.exists,
    });
  }
  return { reviewed, notes };
}

/** "Claude Code · shop: fix the cart total" — the agent, its folder and the turn's first prompt line. */
export function turnTitle(agentName: string, turn: Pick<Turn, 'cwd' | 'prompt'>): string {
  const folder = path.basename(turn.cwd) || turn.cwd;
  return `${agentName} · ${folder}: ${turn.prompt ?? 'what its turn wrote'}`;
}

export function turnDescription(agentName: string, notes: readonly string[]): string {
  return [
    `Written by ${agentName} during its turn, without a review in DiffTray. Keep what you want: what you ` +
      `reject is put back on disk as it was before the turn. Your comments and note go to ${agentName}, ` +
      'which goes on with them; keeping everything without a word ends its turn.',
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
