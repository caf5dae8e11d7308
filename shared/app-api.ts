/**
 * The one contract between the main process and the renderer.
 *
 * The renderer sees main only through `AppApi`. Two carriers implement it: the Electron preload
 * (contextBridge + IPC) and the headless WebSocket client. Both move the same calls, whose
 * parameters main validates (app-api-schemas.ts) before anything reaches core.
 */
import type { Hunk, HunkDecision } from './hunks';
import type { HunkLineDecisions, HunkState } from './line-decisions';
import type { ClientProtocol, SelectionSide } from './client-protocols';
import type {
  ConnectionAnswer,
  ConnectionRequest,
  PairedClientInfo,
  PairingStarted,
  PairingState,
  RemoteOrigin,
  TrustedProgram,
} from './app-api-access';
import type { AppSettings, AppSettingsPatch, SettingsFileState } from './app-settings';

export * from './client-protocols';
export * from './app-api-access';
// Types only: the preload imports this file, and the settings' schemas (zod) have no business there.
export type {
  AppSettings,
  AppSettingsPatch,
  NotificationSettings,
  SettingsFileState,
  ThemeChoice,
} from './app-settings';

export type ReviewState = 'pending' | 'accepted' | 'rejected' | 'superseded' | 'cancelled';

/** A client whose reviews the person paused: its proposals pass through DiffTray at once, unreviewed. */
export interface PausedClient {
  key: string;
  name: string;
  protocol: ClientProtocol;
}

export interface ClientInfo {
  /** Unique per connection. */
  id: string;
  /** What the person sees, e.g. "Claude Code". */
  name: string;
  protocol: ClientProtocol;
  version?: string;
  pid?: number;
  /** The client's working folder, where it could be found out (e.g. from its pid). */
  workspace?: string;
  /**
   * The pid (and the working folder found from it) is what the client said, which DiffTray cannot check
   * (Copilot CLI's X-Copilot-PID header on a Unix socket): shown as claimed, not as a fact.
   */
  claimed?: true;
  /** The agent's own session id (Claude Code's `session_id`), when it gives one. */
  agentSession?: string;
  connectedAt: number;
  connected: boolean;
  /** The last status message the client sent, shown without interrupting a review. */
  status?: { text: string; at: number };
}

export interface HunkView extends Hunk {
  /** 'mixed' when some of its lines are accepted and others rejected. */
  decision: HunkState;
  /** Per-line decisions; present only when `decision` is 'mixed'. */
  lines?: HunkLineDecisions;
}

/**
 * The file on disk compared with the base text the proposal was made against.
 * 'modified' / 'deleted' / 'created' mean someone changed it while the review waited.
 */
export type DiskState = 'unchanged' | 'modified' | 'deleted' | 'created';

/** One file of a review as every list shows it: small, without its hunks. */
export interface ReviewFileInfo {
  path: string;
  /** True when the file does not exist on disk yet. */
  isNewFile: boolean;
  /** The file on disk is binary: shown as such, never diffed; decided as a whole (`fileDecision`). */
  binary: boolean;
  /** Size on disk in bytes of a binary file. */
  binarySize?: number;
  /** Decision on the whole file; for binary files the only decision there is. */
  fileDecision: HunkState;
  /** Bumped whenever the base or proposed text changes (an edit, a rebase), so caches can be refreshed. */
  contentRevision: number;
  /** How many hunks the file has; the hunks themselves travel only for the review on screen. */
  hunkCount: number;
  disk: { state: DiskState; detectedAt?: number };
  /** Conflict blocks (<<<<<<< … >>>>>>>) left in the proposal by a rebase; submit waits until none remain. */
  conflicts: number;
}

/** A file of the review on screen: its info and every hunk with its decision. */
export interface ReviewFileSummary extends ReviewFileInfo {
  hunks: HunkView[];
}

/** What an approval card asks (seed 001): run a command, write or delete a file, use a tool. */
export type ApprovalKind = 'command' | 'write_file' | 'delete_file' | 'tool';

export interface ApprovalRequest {
  kind: ApprovalKind;
  /** The agent's tool, e.g. "Bash". */
  toolName?: string;
  command?: string;
  /** The folder the command would run in. */
  cwd?: string;
  /** The tool's arguments as JSON text (bounded), for tools other than commands. */
  args?: string;
  /** Why the agent wants it (Bash's `description`, `difftray approve -m`). */
  reason?: string;
  riskLevel?: 'low' | 'medium' | 'high';
}

/**
 * An approval card's name, the same in the queue, History and its title: "Run command: npm test". Core
 * titles a card with it when the client gives no title of its own.
 */
export function approvalTitle(approval: ApprovalRequest): string {
  switch (approval.kind) {
    case 'command':
      return approval.command ? `Run command: ${approval.command}` : 'Run a command';
    case 'write_file':
      return approval.toolName ? `Write a file (${approval.toolName})` : 'Write a file';
    case 'delete_file':
      return approval.toolName ? `Delete a file (${approval.toolName})` : 'Delete a file';
    case 'tool':
      return approval.toolName ? `Use tool: ${approval.toolName}` : 'Use a tool';
  }
}

/** What every review carries, in the queue, History and on screen alike. */
interface ReviewFields {
  id: string;
  client: ClientInfo;
  /** Short title: the tab name a CLI gave, else the file name. */
  title: string;
  description?: string;
  createdAt: number;
  state: ReviewState;
  /** Why it ended, when it did not end by a person's accept: a reject reason, "client disconnected"... */
  reason?: string;
  decidedAt?: number;
  /** Present for an approval card (a command or tool to allow or deny): such a review has no files. */
  approval?: ApprovalRequest;
  /** The person's note to the agent, sent with the decision (kept in History). */
  agentNote?: string;
  /** Whether `undo` has a decision or edit to take back. */
  canUndo: boolean;
  /** What happened after the decision that the person should know, e.g. a write that failed. */
  notes?: string[];
  /**
   * An ended review that keeps only this summary: its texts were let go (it was cancelled or
   * superseded, or is older than History's byte budget), so getReviewContent refuses it.
   */
  textsDropped?: true;
  /**
   * The files are on another host (a paired client's): their paths are the client's, DiffTray never
   * reads or writes them here, and the client writes the decided texts.
   */
  remote?: RemoteOrigin;
}

/** A review as the queue and History list it: small, so thousands of them cost little to send. */
export interface ReviewItem extends ReviewFields {
  files: ReviewFileInfo[];
}

/** A review with every hunk: the review on screen (AppApi.focusReview), and core's own full view. */
export interface ReviewSummary extends ReviewFields {
  files: ReviewFileSummary[];
}

export interface ReviewFileContent {
  path: string;
  contentRevision: number;
  baseText: string;
  proposedText: string;
  /** What is on disk now, when it differs from `baseText` (see ReviewFileSummary.disk). */
  diskText?: string;
}

/** Lines chosen inside one hunk: 0-based line indices into the base and proposed texts. */
export interface LineSelection {
  base: number[];
  proposed: number[];
}

/** The whole state at one version: sent on connect, and when a version gap is found. */
export interface AppSnapshot {
  /** The version of the change stream this state is at (AppChange.version). */
  version: number;
  reviews: ReviewItem[];
  clients: ClientInfo[];
  /** Clients whose reviews the person paused, connected or not (a hook connects only while it asks). */
  pausedClients: PausedClient[];
  workspaceFolders: string[];
  /** Folders whose changes on disk are reviewed (watch mode's "Review changes on disk"), sorted. */
  watchedFolders: string[];
  /** Watched folders whose changes are not all reviewed now (paused, or parts the system will not watch). */
  watchIssues?: WatchFolderIssue[];
  // Connection prompts (clients without a token): see ConnectionRequest.
  /** Connections without a token waiting for the person to allow them, oldest first. */
  connectionRequests: ConnectionRequest[];
  /** Programs allowed to connect without a token ("Always allow this program"). */
  trustedPrograms: TrustedProgram[];
  /** Agents on other hosts paired with DiffTray ("Pair a remote agent"). */
  pairedClients?: PairedClientInfo[];
  /** Whether a pairing code is active, and any lock-out after wrong codes. */
  pairing?: PairingState;
  /** Reviews whose writes DiffTray journaled and can take back ("Undo changes on disk"), newest first. */
  undoableWrites?: UndoableWrites[];
  /** What the Settings view shows and changes (settings.json). */
  settings?: AppSettings;
  /** The settings file, and what is wrong with it when it could not be used. */
  settingsFile?: SettingsFileState;
}

/**
 * A watched folder (watch mode) whose changes on disk are not all being reviewed now, and why. Its
 * switch still says "on": this says what it cannot do.
 */
export interface WatchFolderIssue {
  folder: string;
  /**
   * Reviewing is paused because a limit was reached (files in one review, bytes or reviews waiting).
   * Changes since are held, neither reviewed nor taken as reviewed: their baselines stay where the
   * person last decided. Resuming (setFolderWatched(folder, true)) reviews them.
   */
  paused?: { reason: string; since: number; heldChanges: number };
  /** Folders inside it the system would not watch (fs.watch failed): changes there are not seen. */
  unwatched?: WatchUnwatched;
}

/** Folders inside a watched folder that could not be watched, the first one's error, and the fix. */
export interface WatchUnwatched {
  count: number;
  /** The first folder that failed, and the system's error (ENOSPC, EMFILE...). */
  first: string;
  reason: string;
  code?: string;
  fix?: WatchFix;
}

/** How to lift a system limit: what it is, the commands (as root), and what to do after. */
export interface WatchFix {
  explain: string;
  commands: string[];
  then: string;
}

/** One review's writes kept in the undo journal (also those of earlier runs, whose review is gone). */
export interface UndoableWrites {
  /** What `undoWrites` takes: the review id for a review of this run. */
  id: string;
  /** The review's id in the run that wrote them. */
  reviewId: string;
  /** Written by this run: the review is in History under `reviewId`. */
  thisRun: boolean;
  writtenAt: number;
  /** The files written, deleted or reverted. */
  files: string[];
  /** Already undone. */
  spent?: true;
}

/** What `undoWrites` did, file by file. */
export interface UndoWritesResult {
  /** Put back as they were before the review's writes. */
  restored: string[];
  /** Changed on disk since DiffTray wrote them: left alone, and offered as a merge (mergeReviewId). */
  changedSince: string[];
  /** Not put back, and why (a write refused: a symlink swapped in, outside the workspace...). */
  failed: Array<{ path: string; reason: string }>;
  /** The pending review that merges the undo onto the files changed since, when there are any. */
  mergeReviewId?: string;
}

/**
 * One step of the change stream: what changed since `version - 1`. A field left out did not change.
 * Applying every change in order to a snapshot gives the same state as a fresh snapshot
 * (shared/state-sync.ts); a change whose version does not follow calls for a fresh snapshot.
 */
export interface AppChange {
  version: number;
  /** New reviews, whole, in arrival order (they come after every review listed before). */
  added?: ReviewItem[];
  /** Reviews that changed: their id and only the fields that changed. */
  changed?: ReviewPatch[];
  /** Reviews that left History. */
  removed?: string[];
  clients?: ClientInfo[];
  pausedClients?: PausedClient[];
  workspaceFolders?: string[];
  watchedFolders?: string[];
  watchIssues?: WatchFolderIssue[];
  connectionRequests?: ConnectionRequest[];
  trustedPrograms?: TrustedProgram[];
  pairedClients?: PairedClientInfo[];
  pairing?: PairingState;
  undoableWrites?: UndoableWrites[];
  settings?: AppSettings;
  settingsFile?: SettingsFileState;
  /** The hunks that changed in the review on screen (only to the one who asked, AppApi.focusReview). */
  detail?: DetailPatch;
}

/** Fields of a review that changed; optional fields that went away are named in `unset`. */
export type ReviewPatch = { id: string; unset?: Array<keyof ReviewItem> } & Partial<Omit<ReviewItem, 'id'>>;

/**
 * The hunks of the review on screen, per file, at a revision that counts the changes sent for it.
 * Its other fields are its ReviewItem's.
 */
export interface ReviewDetail {
  reviewId: string;
  revision: number;
  files: HunkView[][];
}

/** Hunks that changed in the review on screen since revision `from`. */
export interface DetailPatch {
  reviewId: string;
  from: number;
  to: number;
  /** Per changed file: its new hunk list whole (after an edit or rebase), or the hunks that changed. */
  files: Array<{ fileIndex: number; hunks?: HunkView[]; changed?: Array<[number, HunkView]> }>;
}

/**
 * What a carrier delivers: a change, or the whole state (on connect, or after the window was hidden), or
 * (Electron only) a review to show, chosen in the tray menu or a notification, or the Settings view to
 * open (the tray's "Settings…").
 */
export type StateEvent =
  { change: AppChange } | { snapshot: AppSnapshot } | { show: { reviewId: string } } | { open: 'settings' };

/** What `difftray setup claude-code` would change in Claude Code's settings, shown before it is done. */
export interface ClaudeHooksPlan {
  /** The settings file, e.g. ~/.claude/settings.json. */
  settingsPath: string;
  /** Already set up exactly so: applying changes nothing. */
  upToDate: boolean;
  /** One line per change, for the person to read first. */
  changes: string[];
  /** The hook command that will be written (an absolute path that works from any folder). */
  command: string;
}

export interface AppApi {
  getSnapshot(): Promise<AppSnapshot>;
  /**
   * Names the review on screen (null: none). Answers its hunks; from then on every change carries what
   * changed in them (AppChange.detail), for this window only.
   */
  focusReview(reviewId: string | null): Promise<ReviewDetail | null>;
  /**
   * Which file of the review on screen the person looks at (its tab): what an agent asking for the
   * active file is told (the native get_active_file_info). Ignored for a review not on screen.
   */
  showingFile(reviewId: string, fileIndex: number): Promise<void>;
  getReviewContent(reviewId: string): Promise<ReviewFileContent[]>;
  decideHunks(
    reviewId: string,
    fileIndex: number,
    hunkIndexes: number[],
    decision: HunkDecision,
  ): Promise<void>;
  /** Decides just the chosen lines of one hunk; the hunk becomes 'mixed' unless all its lines agree. */
  decideLines(
    reviewId: string,
    fileIndex: number,
    hunkIndex: number,
    lines: LineSelection,
    decision: HunkDecision,
  ): Promise<void>;
  decideFile(reviewId: string, fileIndex: number, decision: HunkDecision): Promise<void>;
  decideAll(reviewId: string, decision: HunkDecision): Promise<void>;
  editProposal(reviewId: string, fileIndex: number, proposedText: string): Promise<void>;
  /** Takes back the last decision or edit of this review (accept-all and reject-all included). */
  undo(reviewId: string): Promise<void>;
  /** Adopts the text now on disk as the base and merges the proposal onto it (three-way). */
  rebase(reviewId: string, fileIndex: number): Promise<void>;
  /**
   * Fails, without ending the review, when a file changed on disk or conflicts remain. `note` goes to
   * the agent with the decision where its protocol can carry it. For an approval card: allow.
   */
  submit(reviewId: string, note?: string): Promise<void>;
  /** For an approval card: deny; `reason` is the note. */
  reject(reviewId: string, reason?: string): Promise<void>;
  disconnectClient(clientId: string): Promise<void>;
  /** Pauses (or resumes) reviews for a client, by its pause key (clientPauseKey). */
  setClientPaused(key: string, paused: boolean): Promise<void>;
  /** What setting up Claude Code's hooks would change; `apply` does it. */
  claudeHooksSetup(apply: boolean): Promise<ClaudeHooksPlan>;
  /**
   * Turns "Review changes on disk" (watch mode) on or off for a folder inside the workspace, remembered
   * in the settings; answers the folders watched after.
   */
  setFolderWatched(folder: string, watched: boolean): Promise<string[]>;
  /** "Pair a remote agent": a fresh 6-digit code (5 minutes, one use) and the port a tunnel forwards. */
  startPairing(): Promise<PairingStarted>;
  cancelPairing(): Promise<void>;
  /** Forgets a paired client: its token is refused from now on and its connections are closed. */
  revokePairedClient(id: string): Promise<void>;
  /**
   * Sends lines `startLine`..`endLine` (0-based, inclusive) of one side of a review's file to the review's
   * agent as context, where its protocol can carry them (protocolTakesSelections).
   */
  sendSelection(
    reviewId: string,
    fileIndex: number,
    side: SelectionSide,
    startLine: number,
    endLine: number,
  ): Promise<void>;
  /** Answers a connection prompt: allow this connection, allow this program from now on, or deny. */
  answerConnectionRequest(requestId: string, answer: ConnectionAnswer): Promise<void>;
  /** Forgets a program allowed with "Always allow this program": it is asked again next time. */
  revokeTrustedProgram(key: string): Promise<void>;
  /**
   * "Undo changes on disk": puts back what a review's writes replaced (UndoableWrites.id), each file only
   * if it still holds exactly what DiffTray wrote; the others are offered as a merge review.
   */
  undoWrites(id: string): Promise<UndoWritesResult>;
  /**
   * Adds a folder to the workspace (and settings.json); every lock and discovery file is rewritten at
   * once. Answers the workspace folders. Refused with the reason: not a folder, the filesystem root, a
   * system folder, or the settings file cannot be written.
   */
  addWorkspaceFolder(folder: string): Promise<string[]>;
  /** Removes a folder from the workspace (and settings.json); lock files are rewritten. Answers the rest. */
  removeWorkspaceFolder(folder: string): Promise<string[]>;
  /**
   * The native folder picker (desktop app only): the folder chosen, or null when the person cancelled.
   * Refused in a browser, which types the path instead.
   */
  pickFolder(): Promise<string | null>;
  /**
   * Changes the settings named in `patch` and applies them at once; answers the settings now. Refused
   * with the reason when a value is invalid (a key used twice...) or settings.json cannot be used.
   */
  updateSettings(patch: AppSettingsPatch): Promise<AppSettings>;
  /** Called with every change (and a whole snapshot when one is due); returns an unsubscribe function. */
  onState(listener: (event: StateEvent) => void): () => void;
}

export type AppApiMethod =
  | 'getSnapshot'
  | 'focusReview'
  | 'showingFile'
  | 'getReviewContent'
  | 'decideHunks'
  | 'decideLines'
  | 'decideFile'
  | 'decideAll'
  | 'editProposal'
  | 'undo'
  | 'rebase'
  | 'submit'
  | 'reject'
  | 'disconnectClient'
  | 'setClientPaused'
  | 'claudeHooksSetup'
  | 'setFolderWatched'
  | 'sendSelection'
  | 'answerConnectionRequest'
  | 'revokeTrustedProgram'
  | 'startPairing'
  | 'cancelPairing'
  | 'revokePairedClient'
  | 'undoWrites'
  | 'addWorkspaceFolder'
  | 'removeWorkspaceFolder'
  | 'pickFolder'
  | 'updateSettings';

/** The minimal surface a carrier provides; `createAppApi` builds the typed `AppApi` on top of it. */
export interface AppApiCarrier {
  call(method: AppApiMethod, params: unknown): Promise<unknown>;
  onState(listener: (event: StateEvent) => void): () => void;
}

export function createAppApi(carrier: AppApiCarrier): AppApi {
  const call = <T>(method: AppApiMethod, params: unknown): Promise<T> =>
    carrier.call(method, params) as Promise<T>;
  return {
    getSnapshot: () => call('getSnapshot', {}),
    focusReview: (id) => call('focusReview', { reviewId: id }),
    showingFile: (id, file) => call('showingFile', { reviewId: id, fileIndex: file }),
    getReviewContent: (id) => call('getReviewContent', { reviewId: id }),
    decideHunks: (id, file, hunkIndexes, d) =>
      call('decideHunks', { reviewId: id, fileIndex: file, hunkIndexes, decision: d }),
    decideLines: (id, file, hunkIndex, lines, d) =>
      call('decideLines', { reviewId: id, fileIndex: file, hunkIndex, lines, decision: d }),
    decideFile: (id, file, d) => call('decideFile', { reviewId: id, fileIndex: file, decision: d }),
    decideAll: (id, d) => call('decideAll', { reviewId: id, decision: d }),
    editProposal: (id, file, proposedText) =>
      call('editProposal', { reviewId: id, fileIndex: file, proposedText }),
    undo: (id) => call('undo', { reviewId: id }),
    rebase: (id, file) => call('rebase', { reviewId: id, fileIndex: file }),
    submit: (id, note) => call('submit', note === undefined ? { reviewId: id } : { reviewId: id, note }),
    reject: (id, reason) =>
      call('reject', reason === undefined ? { reviewId: id } : { reviewId: id, reason }),
    disconnectClient: (clientId) => call('disconnectClient', { clientId }),
    setClientPaused: (key, paused) => call('setClientPaused', { key, paused }),
    claudeHooksSetup: (apply) => call('claudeHooksSetup', { apply }),
    setFolderWatched: (folder, watched) => call('setFolderWatched', { folder, watched }),
    startPairing: () => call('startPairing', {}),
    cancelPairing: () => call('cancelPairing', {}),
    revokePairedClient: (id) => call('revokePairedClient', { id }),
    sendSelection: (id, file, side, startLine, endLine) =>
      call('sendSelection', { reviewId: id, fileIndex: file, side, startLine, endLine }),
    answerConnectionRequest: (requestId, answer) => call('answerConnectionRequest', { requestId, answer }),
    undoWrites: (id) => call('undoWrites', { id }),
    revokeTrustedProgram: (key) => call('revokeTrustedProgram', { key }),
    addWorkspaceFolder: (folder) => call('addWorkspaceFolder', { folder }),
    removeWorkspaceFolder: (folder) => call('removeWorkspaceFolder', { folder }),
    pickFolder: () => call('pickFolder', {}),
    updateSettings: (patch) => call('updateSettings', patch),
    onState: (listener) => carrier.onState(listener),
  };
}

/** Messages on the headless WebSocket (/api). */
export type HeadlessClientMessage = { id: number; method: AppApiMethod; params: unknown };
export type HeadlessServerMessage =
  | { id: number; result: unknown }
  | { id: number; error: { message: string } }
  | { event: 'change'; change: AppChange }
  | { event: 'snapshot'; snapshot: AppSnapshot };

/** Name of the global the Electron preload exposes. */
export const PRELOAD_GLOBAL = 'difftrayCarrier';
