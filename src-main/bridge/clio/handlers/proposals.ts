/**
 * `openDiff` (full texts; the CLI writes the accepted text, sent as `content`), `proposeDiff` and
 * `applyDiff` (range edits; DiffTray writes the accepted text, atomically, after checking the file still
 * holds what was reviewed). Each puts one file up for review and answers diffAccepted / diffRejected
 * whenever the person decides.
 */
import type { AgentSession } from '../../../core/clients/agent-session';
import type { ApplyFailureCode } from '../../../core/disk/file-writer';
import type { FileDecision } from '../../../core/disk/disk-policy';
import { MAX_FILE_BYTES, type DiskSnapshot } from '../../../core/disk/disk-snapshot';
import { AUTO_APPLIED_NOTE, autoApplyNames } from '../../../core/review/auto-apply';
import { readProposalBase } from '../../../core/review/proposal-base';
import type { ReviewOutcome } from '../../../core/review/review-queue';
import { resolveInsideWorkspace } from '../../../core/workspace/workspace-paths';
import { displayPath } from '../../display-path';
import { applyRangeEdits, RangeEditError } from '../edits';
import type { ClioComment, ClioErrorCode } from '../messages';
import { CLOSED_BY_CLIENT } from './client-state';
import { clientOf, ClioRequestError, sessionOf, type ClioContext, type ClioHandler } from './context';
import { messageOf } from '../../../../shared/error-message';
import type { AgentComment } from '../../../../shared/review-comments';

export const BEFORE_DIFFERS_NOTE =
  'Note: the agent\'s "before" text differs from the file on disk. This diff is against the file on disk.';
export const BEFORE_OF_MISSING_FILE_NOTE =
  'Note: the agent\'s "before" text is not empty, but the file does not exist on disk. This diff creates the file.';
export { AUTO_APPLIED_NOTE };

interface Prepared {
  /** The real path, inside the workspace. */
  path: string;
  base: DiskSnapshot;
  /** The text on disk ('' for a file that does not exist). */
  text: string;
}

interface Proposal extends Prepared {
  /** The path as the client gave it: answers name the file this way. */
  file: string;
  proposedText: string;
  description: string | undefined;
  /** DiffTray writes the accepted text (proposeDiff, applyDiff); otherwise the CLI does (openDiff). */
  difftrayWrites: boolean;
  /** Accepted whole as it arrives (the queue adds History's note): applyDiff with auto-apply on. */
  autoApply: boolean;
}

export const openDiff: ClioHandler<'openDiff'> = async (message, context) => {
  const prepared = await prepare(context, message.file, { mustExist: false });
  checkSize(message.after);
  let note: string | undefined;
  if (message.before !== undefined && message.before !== prepared.text) {
    note = prepared.base.exists ? BEFORE_DIFFERS_NOTE : BEFORE_OF_MISSING_FILE_NOTE;
  }
  propose(context, {
    ...prepared,
    file: message.file,
    proposedText: message.after,
    description: joinText(message.description, note),
    difftrayWrites: false,
    autoApply: false,
  });
};

export const rangeEdits: ClioHandler<'proposeDiff' | 'applyDiff'> = async (message, context) => {
  const prepared = await prepare(context, message.file, { mustExist: true });
  let proposedText: string;
  try {
    proposedText = applyRangeEdits(prepared.text, message.edits);
  } catch (error) {
    if (error instanceof RangeEditError) throw new ClioRequestError('INVALID_RANGE', error.message);
    throw error;
  }
  checkSize(proposedText);
  const autoApply = message.type === 'applyDiff' && autoApplyIsOn(context);
  propose(context, {
    ...prepared,
    file: message.file,
    proposedText,
    description: joinText(message.description),
    difftrayWrites: true,
    autoApply,
  });
};

/** Resolves and reads the file a proposal is about, refusing what cannot be proposed. */
async function prepare(
  { services }: ClioContext,
  file: string,
  { mustExist }: { mustExist: boolean },
): Promise<Prepared> {
  const { workspaceFolders } = services.port;
  let real: string;
  try {
    real = resolveInsideWorkspace(file, workspaceFolders);
  } catch (error) {
    throw new ClioRequestError('PATH_OUTSIDE_WORKSPACE', messageOf(error));
  }
  let base: DiskSnapshot;
  try {
    base = await readProposalBase(real, workspaceFolders);
  } catch (error) {
    throw new ClioRequestError('UNREVIEWABLE_FILE', messageOf(error));
  }
  if (base.exists && base.kind === 'opaque') {
    throw new ClioRequestError('UNREVIEWABLE_FILE', `File is ${base.why}; Clio edits are text only: ${file}`);
  }
  if (!base.exists && mustExist) throw new ClioRequestError('FILE_NOT_FOUND', `File not found: ${file}`);
  return { path: real, base, text: base.exists ? base.text : '' };
}

function propose(context: ClioContext, proposal: Proposal): void {
  const { services, connection } = context;
  const { log } = services;
  // The socket closed while the file was read: its reviews were cancelled already; add none.
  if (connection.closed) return;
  const session = sessionOf(context);
  // Nothing would change: nothing to review or write.
  if (proposal.base.exists && proposal.proposedText === proposal.text) {
    connection.send({ type: 'diffAccepted', file: proposal.file, content: proposal.text });
    return;
  }
  const { id, outcome } = session.propose({
    title: displayPath(proposal.path, session.workspaceFolders),
    ...(proposal.description !== undefined && { description: proposal.description }),
    // One pending review per file and client: a newer proposal for the file supersedes the older.
    tabName: proposal.path,
    files: [{ path: proposal.path, base: proposal.base, proposedText: proposal.proposedText }],
    // Clio decides itself: its applyDiff is a direct edit, its proposeDiff and openDiff ask for review.
    autoApply: proposal.autoApply,
  });
  void answer(context, session, id, proposal, outcome).catch((error: unknown) =>
    log(`clio: failed to answer for ${proposal.file}: ${messageOf(error)}`),
  );
}

async function answer(
  { services, connection }: ClioContext,
  session: AgentSession,
  id: string,
  proposal: Proposal,
  outcome: Promise<ReviewOutcome>,
): Promise<void> {
  const { port, log } = services;
  const result = await outcome;
  const { file } = proposal;
  switch (result.kind) {
    case 'accepted': {
      const final = result.files[0]!;
      if (proposal.difftrayWrites) {
        // Through the one disk policy: written only if the file still holds what was reviewed.
        const disk = { path: proposal.path, base: proposal.base, deletes: false };
        const decision: FileDecision = { kind: 'accepted', composed: final };
        const written = await port.settleFile(id, disk, decision, 'difftray');
        if (written.kind === 'failed') {
          log(`clio: did not write ${proposal.path}: ${written.reason}`);
          session.note(id, `Not written: ${written.reason}`);
          connection.sendError(writeErrorCode(written.code), `Not written: ${file}: ${written.reason}`, file);
          return;
        }
      }
      connection.send({
        type: 'diffAccepted',
        file,
        content: final.finalText,
        ...(result.note !== undefined && { note: result.note }),
        ...withComments(result.comments),
      });
      return;
    }
    case 'rejected':
      connection.send({
        type: 'diffRejected',
        file,
        ...(result.reason !== undefined && { reason: result.reason }),
        ...withComments(result.comments),
      });
      return;
    case 'superseded':
      connection.send({ type: 'diffRejected', file, reason: 'superseded' });
      return;
    case 'cancelled':
      connection.send({
        type: 'diffRejected',
        file,
        reason: result.reason === CLOSED_BY_CLIENT ? 'closed' : result.reason,
      });
      return;
  }
}

/** The person's comments on lines, for the one file a Clio proposal has (so without its path). */
function withComments(comments: readonly AgentComment[] | undefined): { comments?: ClioComment[] } {
  if (!comments || comments.length === 0) return {};
  return { comments: comments.map(({ path: _path, ...comment }) => comment) };
}

function autoApplyIsOn(context: ClioContext): boolean {
  return autoApplyNames(context.services.autoApply(), clientOf(context).name);
}

/** The Clio error code for a write the core refused or could not make. */
function writeErrorCode(code: ApplyFailureCode): ClioErrorCode {
  if (code === 'outside_workspace') return 'PATH_OUTSIDE_WORKSPACE';
  if (code === 'changed_on_disk') return 'FILE_CHANGED';
  if (code === 'not_regular_file' || code === 'not_text') return 'UNREVIEWABLE_FILE';
  return 'WRITE_FAILED';
}

function checkSize(text: string): void {
  if (Buffer.byteLength(text, 'utf8') > MAX_FILE_BYTES) {
    throw new ClioRequestError(
      'UNREVIEWABLE_FILE',
      `The proposed text is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MB limit`,
    );
  }
}

function joinText(...parts: Array<string | undefined>): string | undefined {
  const present = parts.filter((part): part is string => part !== undefined && part.trim() !== '');
  return present.length > 0 ? present.join('\n\n') : undefined;
}
