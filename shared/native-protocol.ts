/**
 * DiffTray's own protocol (docs/protocols/native.md): the seed-003 envelope over one
 * WebSocket, seed-001 change sets, seed-002 sessions, heartbeats and numbered error codes.
 *
 * Pure: shared by the endpoint (src-main/bridge/native) and the `difftray` command (src-main/cli).
 * Unknown fields are ignored, so newer clients keep working.
 */
import { z } from 'zod';
import { labelField, noteField, pathField } from './field-limits';
import { MAX_FILE_BYTES, MAX_FRAME_BYTES } from './limits';
import { contextRequestSchemas } from './native-context';
import { turnRequestSchemas } from './native-turns';
import type { AgentComment } from './review-comments';

export const NATIVE_PROTOCOL_VERSION = '1.0';
/** The header that carries the `authToken` of `~/.difftray/<port>.lock`. */
export const NATIVE_AUTH_HEADER = 'x-difftray-authorization';
/** The largest file a change set may propose or a client may read (seed 002: 10 MB per operation). */
export const NATIVE_MAX_FILE_BYTES = MAX_FILE_BYTES;
/** The largest WebSocket frame taken in (and sent): the limit every endpoint states. */
export const NATIVE_MAX_MESSAGE_BYTES = MAX_FRAME_BYTES;
export const NATIVE_MAX_FILES_PER_CHANGE_SET = 500;

/** Numbered error codes (seed 002's families: auth 1xxx, command 2xxx, file 3xxx, connection 4xxx, system 5xxx). */
export const ErrorCode = {
  MISSING_TOKEN: 1001,
  INVALID_TOKEN: 1002,
  SESSION_UNKNOWN: 1003,
  /** `pair` with a code that is wrong, expired, already used, or when no code is active. */
  PAIRING_REFUSED: 1004,
  /** Too many wrong pairing codes: pairing is refused for a minute. */
  PAIRING_LOCKED: 1005,
  /** A command that needs this machine's files, refused to a paired client (its files are elsewhere). */
  LOCAL_ONLY: 1006,
  MALFORMED_JSON: 2001,
  INVALID_ENVELOPE: 2002,
  UNKNOWN_COMMAND: 2003,
  INVALID_PAYLOAD: 2004,
  MALFORMED_PATCH: 2005,
  OUTSIDE_WORKSPACE: 3001,
  FILE_TOO_LARGE: 3002,
  NOT_FOUND: 3003,
  BINARY_FILE: 3004,
  CONFLICT: 3005,
  WRITE_FAILED: 3006,
  HEARTBEAT_TIMEOUT: 4001,
  RATE_LIMITED: 4002,
  /** The endpoint already serves as many connections as it takes (refused at the upgrade, HTTP 503). */
  TOO_MANY_CONNECTIONS: 4003,
  /** The client already has MAX_PENDING_REVIEWS_PER_CLIENT reviews waiting for the person. */
  TOO_MANY_PENDING_REVIEWS: 4004,
  /** The person paused reviews for this client in Connections: nothing was queued; go ahead unreviewed. */
  REVIEWS_PAUSED: 4005,
  /**
   * A context request (search, folder texts, filter rules) refused because the client already has
   * CONTEXT_MAX_JOBS_PER_CLIENT running or waiting, or DiffTray's context queue is full: ask again
   * once an answer came back.
   */
  CONTEXT_BUSY: 4006,
  INTERNAL: 5001,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** WebSocket close codes the server uses (4000–4999 are the application's own). */
export const CloseCode = {
  /** No message (heartbeat or other) for about three heartbeat intervals. */
  HEARTBEAT_TIMEOUT: 4001,
  /** Another connection said hello with this connection's session id: the session moved there. */
  SESSION_TAKEN_OVER: 4010,
  /** The person pressed "Disconnect" in DiffTray: the session ended, its pending reviews were cancelled. */
  DISCONNECTED_BY_USER: 4011,
  /** The person revoked this paired client in DiffTray: its token is refused from now on. */
  PAIRING_REVOKED: 4012,
} as const;

export const messageTypes = ['request', 'response', 'push', 'error_response'] as const;
export type MessageType = (typeof messageTypes)[number];

export const envelopeSchema = z.object({
  protocol_version: z
    .string()
    .max(100)
    .regex(/^1(\.\d+)*$/, 'unsupported protocol_version (this server speaks 1.0)'),
  message_id: z.string().min(1).max(200),
  type: z.enum(messageTypes),
  command: z.string().min(1).max(100),
  payload: z.unknown().optional(),
});

export interface Envelope<P = unknown> {
  protocol_version: string;
  message_id: string;
  type: MessageType;
  command: string;
  payload: P;
}

const path = pathField().min(1);
const reviewId = z.string().min(1).max(200);

/**
 * One file given as full texts. `before: null` or `after: null`: the file does not exist on that side.
 * Texts over NATIVE_MAX_FILE_BYTES are refused per file by the change-set planner, with code 3002.
 */
const fullTextFile = z.object({
  path,
  /** What the file held when the change was made; omitted: whatever is on disk now. */
  before: z.string().nullable().optional(),
  after: z.string().nullable(),
});

/** Integrations that speak the native protocol on behalf of another program (`difftray hook <agent>`). */
export const integrations = [
  'claude-code-hooks',
  'codex-hooks',
  'gemini-hooks',
  'copilot-hooks',
  'qwen-hooks',
] as const;
export type Integration = (typeof integrations)[number];

export const approvalKinds = ['command', 'write_file', 'delete_file', 'tool'] as const;

export const requestSchemas = {
  hello: z.object({
    client_name: labelField().min(1),
    client_version: labelField().optional(),
    /** A session of a connection that went away: its pending reviews are re-attached to this one. */
    session_id: z.string().min(1).max(200).optional(),
    /** Shown as that program in Connections (Claude Code through its hooks), with what it can hear. */
    integration: z.enum(integrations).optional(),
    /** The agent's own session id (Claude Code's `session_id`), shown with the client. */
    agent_session_id: labelField().min(1).optional(),
    /** The agent's working folder (absolute), shown with the client. */
    workspace: pathField().min(1).optional(),
    /** The agent's process id, shown with the client. */
    pid: z.number().int().positive().optional(),
    /**
     * The session ends with this connection: its pending reviews are cancelled at once instead of
     * waiting for a reconnect (a hook process that Claude Code killed will not come back).
     */
    one_shot: z.boolean().optional(),
  }),
  heartbeat: z.object({}),
  propose_change_set: z
    .object({
      title: labelField().min(1),
      rationale: noteField().optional(),
      acceptance_criteria: z.array(noteField()).max(100).optional(),
      files: z.array(fullTextFile).min(1).max(NATIVE_MAX_FILES_PER_CHANGE_SET).optional(),
      /** A unified diff (git diff, diff -u); `a/` `b/` prefixes and /dev/null are understood. */
      patch: z.string().max(MAX_FRAME_BYTES).optional(),
      /**
       * Absolute folder that relative paths (in `files` and in the patch) are resolved against; default:
       * the first workspace folder. The `difftray` command sends its working directory (or git top level).
       */
      base_dir: pathField().min(1).optional(),
      /** How each file is judged against the disk. Only 'auto' for now: old side, new side, or conflict. */
      base_check: z.literal('auto').optional(),
      /**
       * Who writes the accepted text: DiffTray (default), or the client itself — then DiffTray writes
       * nothing and each file's result carries `final_text`, exactly what the client must write.
       */
      writer: z.enum(['difftray', 'client']).optional(),
    })
    .refine((p) => (p.files === undefined) !== (p.patch === undefined), {
      message: 'give exactly one of "files" and "patch"',
    }),
  get_review: z.object({ review_id: reviewId }),
  list_reviews: z.object({}),
  cancel_review: z.object({ review_id: reviewId, reason: noteField().optional() }),
  status: z.object({
    /** A status line for the person ("running tests…"); needs a session (hello). */
    message: labelField().optional(),
    level: z.enum(['info', 'warning', 'error']).optional(),
  }),
  show_window: z.object({}),
  get_file_tree: z.object({
    /** A workspace folder (absolute); default: the first. */
    folder: pathField().min(1).optional(),
    max_entries: z.number().int().positive().max(100_000).optional(),
  }),
  get_file_content: z.object({ path }),
  /**
   * Turns watch mode ("Review changes on disk") on or off for `folder`, an absolute path judged by its
   * real path at the moment of asking: an existing folder inside a workspace folder. Answered with the
   * folders watched after (`WatchFolderResponse`). Turning on a folder inside a watched one changes
   * nothing (it is already watched); one around watched ones takes their place. Refused with 3001
   * (outside the workspace, a link inside it leading out included), 3003 (missing, or not a folder) or
   * 2004 (turning off a folder that is watched as part of another). Remembered in settings.json.
   */
  watch_folder: z.object({ folder: path, watch: z.boolean() }),
  /** An approval card in the queue (seed 001): answered by the push `approval_result`. */
  request_approval: z.object({
    kind: z.enum(approvalKinds),
    tool_name: labelField().min(1).optional(),
    command: noteField().optional(),
    cwd: pathField().min(1).optional(),
    /** The tool's arguments; shown as JSON, at most MAX_NOTE_CHARS of it. */
    args: z.unknown().optional(),
    reason: noteField().optional(),
    risk_level: z.enum(['low', 'medium', 'high']).optional(),
    /** Shown as the card's title; default: a sentence from kind and command. */
    title: labelField().min(1).optional(),
  }),
  // seed 003's context services: shared/native-context.ts.
  ...contextRequestSchemas,
  // The turn review's requests: shared/native-turns.ts.
  ...turnRequestSchemas,
} as const;

export type RequestCommand = keyof typeof requestSchemas;
export type RequestPayload<C extends RequestCommand> = z.infer<(typeof requestSchemas)[C]>;

export function isRequestCommand(command: string): command is RequestCommand {
  return Object.prototype.hasOwnProperty.call(requestSchemas, command);
}

/**
 * Commands that need no hello: a one-shot `difftray status`, `difftray open` or `difftray watch` is not
 * a client. `watch_folder` changes what the app does, but a session would not make it any safer: every
 * connection has already proved the lock file's token (the same person who can edit settings.json, where
 * the watched folders live), and the change outlives the connection either way.
 */
export const SESSIONLESS_COMMANDS: ReadonlySet<RequestCommand> = new Set([
  'hello',
  'heartbeat',
  'show_window',
  'status',
  'watch_folder',
  // With `session_id` it needs no hello of its own; without, the handler asks for one.
  'register_active_target',
]);

export interface Limits {
  max_file_bytes: number;
  max_message_bytes: number;
  max_files_per_change_set: number;
  /** At most `messages` requests per `per_ms` on one connection; more are answered with 4002. */
  rate_limit: { messages: number; per_ms: number };
}

export interface HelloResponse {
  session_id: string;
  /** True when session_id named an earlier session: its pending reviews now answer here. */
  resumed: boolean;
  server_name: 'DiffTray';
  server_version: string;
  heartbeat_interval_ms: number;
  limits: Limits;
  workspace_folders: string[];
}

export type HunkResultDecision = 'accepted' | 'rejected' | 'mixed';

/** One hunk as DiffTray shows it: a maximal run of changed lines, 0-based, ends exclusive. */
export interface HunkResult {
  index: number;
  base_start: number;
  base_end: number;
  proposed_start: number;
  proposed_end: number;
  decision: HunkResultDecision;
  /** The patch hunk (0-based, in the file's section of the patch) this hunk lies in. */
  patch_hunk?: number;
}

/** 'accepted' only with `writer: 'client'`: DiffTray wrote nothing; the client writes `final_text`. */
export type FileResultStatus = 'applied' | 'accepted' | 'rejected' | 'conflict' | 'error';

export interface FileResult {
  /** As the client gave it (patch paths without their a/ b/ prefix). */
  path: string;
  status: FileResultStatus;
  reason?: string;
  /** For conflict and error: 3003, 3004, 3005, 3006… */
  code?: ErrorCode;
  /** sha256 (hex) of the file's bytes as DiffTray left them; absent when the file does not exist. */
  applied_hash?: string;
  /** The file was deleted (a patch to /dev/null, accepted). */
  deleted?: boolean;
  /** The agent had already written this change; DiffTray put back what was rejected. */
  reverted?: boolean;
  /** How the file was found on disk: the diff's old side, or its new side (already written). */
  disk: 'old_side' | 'new_side' | 'neither';
  hunks: HunkResult[];
  /**
   * With `writer: 'client'`, for an 'accepted' file: the text composed from the person's decisions (and
   * edits), exactly what the client must write; null: delete the file.
   */
  final_text?: string | null;
}

export type ChangeSetStatus = 'accepted' | 'partially_accepted' | 'rejected' | 'cancelled';

export interface ChangeSetResult {
  review_id: string;
  status: ChangeSetStatus;
  reason?: string;
  /** The person's note to the agent, sent with an accept or partial accept (a reject's note is `reason`). */
  note?: string;
  /**
   * The person's comments on lines, with an accept, a partial accept or a reject; absent when none.
   * `path` is the file's as the client named it; `line` is 1-based, in the proposed text (`side:
   * 'proposed'`) or the text before the change (`'base'`); `quote` is that line, trimmed.
   */
  comments?: AgentComment[];
  files: FileResult[];
}

export interface ApprovalResponse {
  request_id: string;
}

/** Pushed when the person answers an approval card (or it ends unanswered: `status: 'cancelled'`). */
export interface ApprovalResult {
  request_id: string;
  approved: boolean;
  status: 'approved' | 'denied' | 'cancelled';
  /** The person's note (a deny's reason), or why it was cancelled. */
  note?: string;
}

/**
 * Pushed when the person sends lines of a review's file to its agent ("Send to agent"), to the
 * connection that holds the session of the review's client; a session between connections is not sent
 * it (the person is told). After seed 003 §3.3.1: when a connection registered as the session's
 * target (`register_active_target`), the snippet goes there, with its `targetTabId` when it gave one.
 *
 * `startLine`..`endLine` are 1-based and inclusive, as the label a person reads ("auth.py (10-20)"),
 * unlike the 0-based hunk offsets of change set results. `snippet` is the lines whole, joined by '\n'
 * with no line break after the last.
 */
export interface PushSnippet {
  snippet: string;
  /** A VS Code language id guessed from the file name ("typescript", "python"…); "plaintext" if unknown. */
  language: string;
  /** The file's absolute path. */
  filePath: string;
  startLine: number;
  endLine: number;
  /** DiffTray's own: which text the lines are of, the file's (base) or the agent's proposal. */
  side: 'base' | 'proposed';
  metadata: {
    /** Fresh for every push. */
    unique_block_id: string;
    /**
     * `<file URL>::snippet::<startLine>-<endLine>`, with `::proposed` after it for the proposal's lines:
     * the same lines of the same text give the same id.
     */
    content_source_id: string;
    type: 'code_snippet';
    /** "<file name> (<startLine>-<endLine>)", "<file name> (<startLine>-<endLine>, proposed)". */
    label: string;
    /** The workspace folder the file is in, when it is in one. */
    workspaceFolderUri: string | null;
    workspaceFolderName: string | null;
  };
  /** The `tabId` the registered target gave (register_active_target); absent when none. */
  targetTabId?: number;
}

export interface ProposeResponse {
  review_id: string;
  /** Each file as judged now: up for review ('pending'), or left out ('conflict', 'error'). */
  files: Array<{
    path: string;
    status: 'pending' | 'conflict' | 'error';
    disk: FileResult['disk'];
    reason?: string;
    code?: ErrorCode;
  }>;
}

export interface ReviewInfo {
  review_id: string;
  title: string;
  state: 'pending' | 'accepted' | 'rejected' | 'superseded' | 'cancelled';
  created_at: number;
  /**
   * Present once the review ended: the `change_set_result` pushed, without `final_text` (the texts go
   * out once, with the push; a session does not keep them).
   */
  result?: ChangeSetResult;
}

export interface StatusResponse {
  server_version: string;
  pid: number;
  workspace_folders: string[];
  pending: number;
  clients: Array<{ name: string; protocol: string; version?: string; since: number; status?: string }>;
  /** Folders whose changes on disk are reviewed (watch mode), sorted; absent where there is no watch mode. */
  watched_folders?: string[];
  /** Watched folders whose changes are not all reviewed now: paused, or parts the system will not watch. */
  watch_issues?: WatchIssueInfo[];
}

/** A watched folder that is paused or partly unwatched, as `status` says it (AppSnapshot.watchIssues). */
export interface WatchIssueInfo {
  folder: string;
  paused?: { reason: string; held_changes: number };
  unwatched?: {
    count: number;
    first: string;
    reason: string;
    fix?: { explain: string; commands: string[]; then: string };
  };
}

export interface WatchFolderResponse {
  /** The folders watched after the change (real paths), sorted. */
  watched_folders: string[];
}

/**
 * Never the headless UI's address: it carries the token that decides reviews, and the caller may be the
 * agent under review. (Earlier servers sent `headless_url` when headless; a client ignores it.)
 */
export interface ShowWindowResponse {
  /** The window was shown (the desktop app), or DiffTray opened its headless UI in the person's browser. */
  shown: boolean;
  /** Set when the UI was opened in the person's browser (DiffTray runs headless). */
  in_browser?: boolean;
}

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** The discovery file `<DIFFTRAY_HOME or ~/.difftray>/<port>.lock`. */
export interface NativeLockFile {
  pid: number;
  /**
   * When that process started, as /proc/<pid>/stat gives it (clock ticks since boot; Linux): a pid that
   * names another process since (reused) makes the lock stale. Absent where it cannot be read.
   */
  processStart?: string;
  port: number;
  authToken: string;
  workspaceFolders: string[];
  ideName: 'DiffTray';
  transport: 'ws';
  protocol_version: string;
}

export const lockFileSchema = z.object({
  pid: z.number().int().positive(),
  processStart: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  port: z.number().int().min(1).max(65535),
  authToken: z.string().min(1),
  workspaceFolders: z.array(z.string()),
  ideName: z.literal('DiffTray'),
  transport: z.literal('ws'),
  protocol_version: z.string(),
});

/** The first issue of a failed parse, as one line a client author can act on. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'payload';
  return `${where}: ${issue.message}`;
}

export * from './native-pairing';
export * from './native-handshake';
