/**
 * The Clio IDE bridge messages (seed 000), validated with zod. Unknown fields are ignored, so newer
 * clients keep working; DiffTray's additions to the seed are marked below.
 */
import type { AgentComment } from '../../../shared/review-comments';
import { z } from 'zod';
import { fileTextField, labelField, noteField, pathField } from '../../../shared/field-limits';

/** Range edits one proposeDiff/applyDiff may carry: far more than any real edit, few enough to bound. */
export const CLIO_MAX_EDITS = 10_000;

const position = z.object({
  line: z.number().int().nonnegative(),
  character: z.number().int().nonnegative(),
});

const rangeEdit = z.object({
  range: z.object({ start: position, end: position }),
  oldText: fileTextField().optional(),
  newText: fileTextField(),
});

const file = pathField().min(1);
const description = noteField().optional();
const edits = z.array(rangeEdit).min(1).max(CLIO_MAX_EDITS);

export const clioMessageSchemas = {
  connect: z.object({
    type: z.literal('connect'),
    clientVersion: labelField().optional(),
    /** DiffTray addition: the `authToken` from bridge.json, for clients that cannot set a header. */
    token: labelField().optional(),
    /**
     * DiffTray addition: the name a client without a token gives, shown in the connection prompt ("Clio"
     * when absent). Only a claim: where the process can be identified, the prompt names it by its pid.
     */
    clientName: labelField().min(1).optional(),
  }),
  openDiff: z.object({
    type: z.literal('openDiff'),
    file,
    before: fileTextField().optional(),
    after: fileTextField(),
    description,
  }),
  proposeDiff: z.object({
    type: z.literal('proposeDiff'),
    file,
    edits,
    description,
  }),
  applyDiff: z.object({
    type: z.literal('applyDiff'),
    file,
    edits,
    description,
  }),
  closeDiff: z.object({ type: z.literal('closeDiff'), file }),
  status: z.object({
    type: z.literal('status'),
    message: labelField(),
    level: z.enum(['info', 'warning', 'error']).optional(),
  }),
} as const;

export type ClioMessageType = keyof typeof clioMessageSchemas;
export type ClioMessage<T extends ClioMessageType = ClioMessageType> = z.infer<
  (typeof clioMessageSchemas)[T]
>;

export function isClioMessageType(type: string): type is ClioMessageType {
  return Object.prototype.hasOwnProperty.call(clioMessageSchemas, type);
}

export type ClioErrorCode =
  | 'INVALID_JSON'
  | 'INVALID_MESSAGE'
  | 'UNKNOWN_TYPE'
  | 'UNAUTHORIZED'
  | 'PATH_OUTSIDE_WORKSPACE'
  | 'FILE_NOT_FOUND'
  | 'INVALID_RANGE'
  | 'UNREVIEWABLE_FILE'
  | 'FILE_CHANGED'
  | 'WRITE_FAILED'
  /** The client already has MAX_PENDING_REVIEWS_PER_CLIENT reviews waiting for the person. */
  | 'TOO_MANY_PENDING_REVIEWS'
  | 'INTERNAL_ERROR';

/** What DiffTray sends. `content`, `reason`, `file` on errors and `ideName` are additions to the seed. */
export type ClioServerMessage =
  | { type: 'connected'; serverVersion: string; capabilities: string[]; ideName: string }
  /** `content`: the accepted text, as composed from the person's decisions (and as written, where DiffTray writes). */
  /** `note`: the person's note to the agent, when they wrote one (DiffTray's addition to Clio's message). */
  | { type: 'diffAccepted'; file: string; content: string; note?: string; comments?: ClioComment[] }
  | { type: 'diffRejected'; file: string; reason?: string; comments?: ClioComment[] }
  | { type: 'error'; code: ClioErrorCode; message: string; file?: string };

/** A comment on a line of the file (DiffTray's addition): 1-based line of one side, the line quoted. */
export type ClioComment = Omit<AgentComment, 'path'>;

export const CLIO_CAPABILITIES = ['diff', 'apply', 'status'];

/** The first issue of a failed parse, as one line a CLI author can act on. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'message';
  return `${where}: ${issue.message}`;
}
