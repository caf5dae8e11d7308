/**
 * The Clio IDE bridge messages (seed 000), validated with zod. Unknown fields are ignored, so newer
 * clients keep working; DiffTray's additions to the seed are marked below.
 */
import { z } from 'zod';

const position = z.object({
  line: z.number().int().nonnegative(),
  character: z.number().int().nonnegative(),
});

const rangeEdit = z.object({
  range: z.object({ start: position, end: position }),
  oldText: z.string().optional(),
  newText: z.string(),
});

const file = z.string().min(1);

export const clioMessageSchemas = {
  connect: z.object({
    type: z.literal('connect'),
    clientVersion: z.string().optional(),
    /** DiffTray addition: the `authToken` from bridge.json, for clients that cannot set a header. */
    token: z.string().optional(),
  }),
  openDiff: z.object({
    type: z.literal('openDiff'),
    file,
    before: z.string().optional(),
    after: z.string(),
    description: z.string().optional(),
  }),
  proposeDiff: z.object({
    type: z.literal('proposeDiff'),
    file,
    edits: z.array(rangeEdit).min(1),
    description: z.string().optional(),
  }),
  applyDiff: z.object({
    type: z.literal('applyDiff'),
    file,
    edits: z.array(rangeEdit).min(1),
    description: z.string().optional(),
  }),
  closeDiff: z.object({ type: z.literal('closeDiff'), file }),
  status: z.object({
    type: z.literal('status'),
    message: z.string(),
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
  | 'INTERNAL_ERROR';

/** What DiffTray sends. `content`, `reason`, `file` on errors and `ideName` are additions to the seed. */
export type ClioServerMessage =
  | { type: 'connected'; serverVersion: string; capabilities: string[]; ideName: string }
  /** `content`: the accepted text, as composed from the person's decisions (and as written, where DiffTray writes). */
  | { type: 'diffAccepted'; file: string; content: string }
  | { type: 'diffRejected'; file: string; reason?: string }
  | { type: 'error'; code: ClioErrorCode; message: string; file?: string };

export const CLIO_CAPABILITIES = ['diff', 'apply', 'status'];

/** The first issue of a failed parse, as one line a CLI author can act on. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'message';
  return `${where}: ${issue.message}`;
}
