/**
 * Serves the AppApi calls that the carriers (Electron IPC, headless WebSocket) forward.
 * Parameters come from a renderer and are validated here, once, for both carriers, against the
 * contract's schemas (shared/app-api/); the table below must serve every method of the contract.
 */
import {
  appApiSpecs,
  clientPauseKey,
  isAppApiMethod,
  type AppApiMethod,
  type AppApiParams,
  type AppApiResult,
  type AppSettings,
  type AppSettingsPatch,
  type UndoWritesResult,
} from '../../shared/app-api';
import type { AppCore } from './app-core';
import type { AgentHooksContext } from './setup/agent-setup';
import { agentHookStates, agentHooksPlan } from './setup/app-hooks';
import { ConnectionRequestError } from './clients/connection-requests';
import { submitWithDiskCheck } from './disk/disk-guard';
import { ReviewTextsDroppedError } from './review/review-queue';
import { selectionOf, SelectionError } from './review/selection-context';
import { SettingsStoreError } from './settings/settings-store';
import { reviewDetail, type StateSubscription } from './state-feed';
import { UndoWritesError } from './undo/undo-writes';
import { WatchFolderError } from './watch/watch-folders';
import { PairingError, type Pairing } from './pairing/pairing';
import type { WatchMode } from './watch/watch-mode';
import { WorkspaceFolderError, type WorkspaceEditor } from './workspace/workspace-editor';

export class AppApiError extends Error {}

/**
 * Serves one call. `subscription` is the caller's end of the change stream (a window's): focusReview
 * names the review on screen for it; without one, focusReview only answers the hunks.
 */
export type AppApiHandler = (
  method: unknown,
  params: unknown,
  subscription?: StateSubscription,
) => Promise<unknown>;

/** One function per method of the contract, taking its parameters and answering its result. */
export type AppApiHandlers = {
  [M in AppApiMethod]: (
    params: AppApiParams<M>,
    caller: StateSubscription | undefined,
  ) => Promise<AppApiResult<M>>;
};

export interface AppApiHandlerOptions {
  /** Watch mode, whose folders the app's switch turns on and off; none in tests that do not need it. */
  watch?: WatchMode;
  /** Pairing remote agents; none in tests that do not need it. */
  pairing?: Pairing;
  /** Adding and removing workspace folders; none in tests that do not need it. */
  workspace?: WorkspaceEditor;
}

export function createAppApiHandler(core: AppCore, options: AppApiHandlerOptions = {}): AppApiHandler {
  const { queue } = core;
  const handlers: AppApiHandlers = {
    getSnapshot: async () => core.snapshot(),
    focusReview: async (p, caller) => (caller ? caller.focus(p.reviewId) : reviewDetail(queue, p.reviewId)),
    showingFile: async (p, caller) => caller?.showFile(p.reviewId, p.fileIndex),
    getReviewContent: async (p) => queue.contents(p.reviewId),
    decideHunks: async (p) => queue.decideHunks(p.reviewId, p.fileIndex, p.hunkIndexes, p.decision),
    decideLines: async (p) => queue.decideLines(p.reviewId, p.fileIndex, p.hunkIndex, p.lines, p.decision),
    decideFile: async (p) => queue.decideFile(p.reviewId, p.fileIndex, p.decision),
    decideAll: async (p) => queue.decideAll(p.reviewId, p.decision),
    editProposal: async (p) => queue.editProposal(p.reviewId, p.fileIndex, p.proposedText),
    undo: async (p) => queue.undo(p.reviewId),
    rebase: async (p) => queue.rebase(p.reviewId, p.fileIndex),
    putComment: async ({ reviewId, ...comment }) => queue.putComment(reviewId, comment),
    submit: (p) => submitWithDiskCheck(queue, p.reviewId, core.workspaceFolders, p.note),
    reject: async (p) => queue.reject(p.reviewId, p.reason),
    disconnectClient: async (p) => core.clients.requestDisconnect(p.clientId),
    setClientPaused: async (p) => setPaused(core, p.key, p.paused),
    agentHooksSetup: async (p) => agentHooksPlan(hooksContext(core), p),
    agentHooksStatus: async () => agentHookStates(hooksContext(core)),
    setFolderWatched: (p) => setFolderWatched(options.watch, p.folder, p.watched),
    startPairing: async () => withPairing(options.pairing, (pairing) => pairing.start()),
    cancelPairing: async () => withPairing(options.pairing, (pairing) => pairing.cancel()),
    revokePairedClient: async (p) => withPairing(options.pairing, (pairing) => pairing.revoke(p.id)),
    sendSelection: (p) => sendSelection(core, p),
    answerConnectionRequest: async (p) =>
      asAppApiError(() => core.connectionRequests.answer(p.requestId, p.answer)),
    revokeTrustedProgram: async (p) => asAppApiError(() => core.connectionRequests.revoke(p.key)),
    undoWrites: (p) => undoWrites(core, p.id),
    addWorkspaceFolder: async (p) => withWorkspace(options.workspace, (editor) => editor.add(p.folder)),
    removeWorkspaceFolder: async (p) => withWorkspace(options.workspace, (editor) => editor.remove(p.folder)),
    // The desktop shell answers this one itself (the native dialog); a browser types the path.
    pickFolder: () => {
      throw new AppApiError('Choosing a folder in a dialog needs the desktop app: type its path instead');
    },
    updateSettings: async (p) => updateSettings(core, p),
  };

  /** Checks the parameters against the method's schema, then hands them to its handler. */
  async function serve<M extends AppApiMethod>(
    method: M,
    params: unknown,
    caller: StateSubscription | undefined,
  ): Promise<AppApiResult<M>> {
    const parsed = appApiSpecs[method].params.safeParse(params ?? {});
    if (!parsed.success) {
      throw new AppApiError(
        `Invalid parameters for ${method}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    return handlers[method](parsed.data, caller);
  }

  return async (method, params, subscription) => {
    if (!isAppApiMethod(method)) throw new AppApiError(`Unknown method: ${String(method)}`);
    const result = await serve(method, params, subscription);
    return result === undefined ? null : result;
  };
}

/** Pauses a client by its key: one connected now, or one already paused (to resume it). */
function setPaused(core: AppCore, key: string, paused: boolean): void {
  if (!paused) return core.queue.resumeByKey(key);
  const client = core.clients.list().find((candidate) => clientPauseKey(candidate) === key);
  if (!client) throw new AppApiError(`No connected client ${key} to pause`);
  core.queue.setPaused(client, true);
}

/** Changes settings.json and applies it; a refusal (a broken file, a key used twice) reaches the window. */
function updateSettings(core: AppCore, patch: AppSettingsPatch): AppSettings {
  if (!core.settings) throw new AppApiError('Settings are not kept here');
  try {
    return core.settings.update(patch);
  } catch (error) {
    if (error instanceof SettingsStoreError) throw new AppApiError(error.message);
    throw error;
  }
}

/** Where the agents' hook files are, as the runtime said; unit tests without it are told so. */
function hooksContext(core: AppCore): AgentHooksContext {
  if (!core.agentHooks) throw new AppApiError("Setting up agents' hooks is not available here");
  return core.agentHooks;
}

async function setFolderWatched(
  watch: WatchMode | undefined,
  folder: string,
  watched: boolean,
): Promise<string[]> {
  if (!watch) throw new AppApiError('Watch mode is not available here');
  try {
    return await watch.setWatched(folder, watched);
  } catch (error) {
    if (error instanceof WatchFolderError) throw new AppApiError(error.message);
    throw error;
  }
}

/** "Send to agent": the lines go to the review's client, where its protocol can carry them. */
async function sendSelection(core: AppCore, p: AppApiParams<'sendSelection'>): Promise<void> {
  const review = core.queue.find(p.reviewId);
  if (!review) throw new AppApiError(`No review ${p.reviewId}`);
  try {
    const selection = selectionOf(core.queue, p.reviewId, p.fileIndex, p.side, p.startLine, p.endLine);
    await core.clients.sendContext(review.client.id, selection);
  } catch (error) {
    if (error instanceof SelectionError || error instanceof ReviewTextsDroppedError) {
      throw new AppApiError(error.message);
    }
    throw error;
  }
}

/** "Undo changes on disk": a refusal (nothing kept, already undone) reaches the window as its message. */
async function undoWrites(core: AppCore, id: string): Promise<UndoWritesResult> {
  try {
    return await core.writeUndo.undo(id);
  } catch (error) {
    if (error instanceof UndoWritesError) throw new AppApiError(error.message);
    throw error;
  }
}

/** Connection prompts: a refusal (gone, unknown, not saved) reaches the window as its message. */
function asAppApiError(task: () => void): void {
  try {
    task();
  } catch (error) {
    if (error instanceof ConnectionRequestError) throw new AppApiError(error.message);
    throw error;
  }
}

function withWorkspace<T>(editor: WorkspaceEditor | undefined, act: (editor: WorkspaceEditor) => T): T {
  if (!editor) throw new AppApiError('Workspace folders cannot be changed here');
  try {
    return act(editor);
  } catch (error) {
    if (error instanceof WorkspaceFolderError) throw new AppApiError(error.message);
    throw error;
  }
}

function withPairing<T>(pairing: Pairing | undefined, act: (pairing: Pairing) => T): T {
  if (!pairing) throw new AppApiError('Pairing remote agents is not available here');
  try {
    return act(pairing);
  } catch (error) {
    if (error instanceof PairingError) throw new AppApiError(error.message);
    throw error;
  }
}
