/**
 * The turn review's commands (shared/native-turns.ts), sent by an agent's hooks: `turn_begin` at the
 * person's prompt, `turn_touch` before a write (DiffTray reads the file as it is before the turn writes
 * it), `turn_end` when the agent's turn ends — what the turn wrote that the person has not seen goes up
 * as one review, reviewed after the fact: kept, or reverted on disk by core's writer, only while the file
 * still holds what was reviewed (else a conflict).
 */
import { realpathSync } from 'node:fs';
import { ErrorCode, type ChangeSetResult } from '../../../../shared/native-protocol';
import { turnReason } from '../../../../shared/hooks/turn-answer';
import type { TurnEndResponse, TurnTouchResponse } from '../../../../shared/native-turns';
import { readConfinedSnapshot } from '../../../core/disk/disk-snapshot';
import { turnKey, type Turn } from '../../../core/turns/agent-turns';
import { reviewsEachEdit } from '../../../core/turns/turn-policy';
import {
  joinUnresolved,
  PathOutsideWorkspaceError,
  resolveInsideWorkspace,
} from '../../../core/workspace/workspace-paths';
import { messageOf } from '../../../../shared/error-message';
import type { Session } from '../sessions';
import { defineCommand, RequestError, sessionOf, type CommandContext } from './command';
import { startTurnDeadline, MINUTE_MS } from './turn-deadline';
import { turnChanges, turnDescription, turnTitle, type TurnBase } from './turn-review';
import { putUpForReview } from './propose';

export const turnBegin = defineCommand('turn_begin', (payload, context) => {
  const { key, cwd } = turnIdentity(context, 'turn_begin');
  context.services.port.turns.begin(key, cwd, payload.prompt);
  context.respond({});
});

export const turnTouch = defineCommand('turn_touch', async (payload, context) => {
  const { key, cwd, session } = turnIdentity(context, 'turn_touch');
  const { port } = context.services;
  const turn = port.turns.turnOf(key, cwd);
  let outside = false;
  for (const given of payload.paths) {
    const real = resolveInWorkspace(given, cwd, port.workspaceFolders);
    if (real === undefined) {
      // Nothing outside the workspace is written by DiffTray, reverts included: that edit is asked now.
      outside = true;
      continue;
    }
    if (port.turns.follows(turn, real)) continue;
    let before: Parameters<typeof port.turns.noteBefore>[2];
    try {
      before = await readConfinedSnapshot(real, port.workspaceFolders);
    } catch (error) {
      before = { unknown: `not read before the turn wrote it (${messageOf(error)})` };
    }
    port.turns.noteBefore(turn, real, before);
  }
  const { integration } = session.identity;
  const settings = integration === undefined ? undefined : port.turnSettings(integration);
  // A script that is not an agent's hooks has no settings here: its edits are asked each.
  const eachEdit = outside || !settings || reviewsEachEdit(settings, payload.permission_mode);
  context.respond({ each_edit: eachEdit } satisfies TurnTouchResponse);
});

export const turnEnd = defineCommand('turn_end', async (_payload, context) => {
  const { key, session } = turnIdentity(context, 'turn_end');
  const { port, log } = context.services;
  const turn = port.turns.find(key);
  const nothing: TurnEndResponse = { review_id: null, files: 0 };
  const { integration } = session.identity;
  const settings = integration === undefined ? undefined : port.turnSettings(integration);
  if (!turn || settings?.review === 'off' || turn.reviewing) {
    if (turn && !turn.reviewing) turn.open = false;
    context.respond(nothing);
    return;
  }
  // Changes watch mode saw in the turn's folder and has not looked at yet (a shell command's) join it.
  await context.services.watch?.flush();
  const against: TurnBase = settings?.review === 'always' ? 'before' : 'lastSeen';
  const { reviewed, notes, unseen } = await turnChanges(turn, port.turns, port.workspaceFolders, against);
  if (context.connection.closed) return;
  // The whole turn is asked once; then only when the agent wrote more, so an agent that goes on with the
  // person's words and writes nothing new ends its turn.
  if (reviewed.length === 0 || (!unseen && turn.reviewedOnce)) {
    turn.open = false;
    for (const note of notes) log(`turn review (${session.name}): ${note}`);
    context.respond(nothing);
    return;
  }
  turn.reviewing = true;
  let stopClock = () => {};
  let timedOut = false;
  const { id } = putUpForReview(
    {
      session,
      title: turnTitle(session.name, turn),
      description: turnDescription(session.name, notes, against),
      planned: [...reviewed],
      reviewed,
      writer: 'difftray',
      onSettled: (result) => {
        stopClock();
        // Cancelled otherwise (the hook killed, DiffTray closing), nobody saw these writes: asked again.
        const seen = result.status !== 'cancelled' || timedOut;
        void afterReview(turn, reviewed, result, seen, context);
      },
    },
    context.services,
  );
  const request = session.reviews.get(id)?.request;
  const minutes = settings?.timeoutMinutes ?? null;
  if (minutes !== null && request !== undefined) {
    stopClock = startTurnDeadline(minutes, context.services.turnMinuteMs ?? MINUTE_MS, (reason) => {
      timedOut = true;
      port.cancelRequests(new Set([request]), reason);
    });
  }
  context.respond({ review_id: id, files: reviewed.length } satisfies TurnEndResponse);
});

/**
 * The turn review ended. Decided (or kept by its time limit), what each file holds now is what the
 * person last saw of it; otherwise the files stay as they were followed, to be asked again.
 */
async function afterReview(
  turn: Turn,
  reviewed: ReadonlyArray<{ real: string }>,
  result: ChangeSetResult,
  seen: boolean,
  { services: { port } }: CommandContext,
): Promise<void> {
  turn.reviewing = false;
  if (!seen) return;
  turn.reviewedOnce = true;
  // Told nothing, the agent ends its turn; told something, it goes on with it.
  turn.open = turnReason(result) !== undefined;
  turn.lastActivity = Date.now();
  for (const { real } of reviewed) {
    const followed = turn.files.get(real);
    if (!followed) continue;
    try {
      port.turns.noteReviewed(turn, real, await readConfinedSnapshot(real, port.workspaceFolders));
    } catch {
      // Unreadable now: the next turn review compares with the earlier text again.
    }
  }
}

function turnIdentity(
  context: CommandContext,
  command: string,
): { key: string; cwd: string; session: Session } {
  const session = sessionOf(context, command);
  const agentSessionId = session.identity.agent_session_id;
  if (agentSessionId === undefined) {
    throw new RequestError(
      ErrorCode.INVALID_PAYLOAD,
      `"${command}" needs the agent's session: send agent_session_id in hello`,
    );
  }
  const cwd = realFolder(session.identity.workspace ?? context.services.port.workspaceFolders[0] ?? '');
  return { key: turnKey(session.name, agentSessionId), cwd, session };
}

/** The agent's folder as watch mode and the workspace name it: links resolved (as it was, if gone). */
function realFolder(folder: string): string {
  try {
    return folder === '' ? folder : realpathSync.native(folder);
  } catch {
    return folder;
  }
}

/** `given`'s real path when it is inside the workspace, else undefined. */
function resolveInWorkspace(given: string, cwd: string, folders: readonly string[]): string | undefined {
  try {
    return resolveInsideWorkspace(joinUnresolved(cwd, given), folders);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) return undefined;
    throw error;
  }
}
