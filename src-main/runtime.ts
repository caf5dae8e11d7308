/**
 * Wires the parts every way of running DiffTray shares: core, the app API handler, and the bridge
 * with its lock files. The Electron shell and the headless server each add only their carrier.
 */
import os from 'node:os';
import path from 'node:path';
import { createAppApiHandler, type AppApiHandler } from './core/app-api-handler';
import { AppCore } from './core/app-core';
import { currentHookCommand } from './core/setup/claude-hook-command';
import { mirrorPausesToFile } from './core/review/queue/hook-pauses-file';
import { mirrorTurnsToFile } from './core/turns/turns-file';
import { recoverLeftovers } from './core/undo/write-journal';
import {
  difftrayHome,
  extraLockFolders,
  resolveWorkspaceFolders,
  trustedPrograms,
  watchFolders,
  watchFoldersToRemember,
} from './core/settings/settings';
import { SettingsStore } from './core/settings/settings-store';
import { sameValue } from '../shared/state-sync';
import { ConnectionRequestError } from './core/clients/connection-requests';
import { WatchMode } from './core/watch/watch-mode';
import { WorkspaceEditor } from './core/workspace/workspace-editor';
import { HostKey } from './core/pairing/host-key';
import { Pairing } from './core/pairing/pairing';
import type { BridgeEndpoint } from './bridge/bridge-server';
import { BridgeServer } from './bridge/bridge-server';
import { clioBridgeFile, startClioEndpoint, type ClioEndpoint } from './bridge/clio';
import { copilotLockDir, startCopilotCliEndpoint, type CopilotCliEndpoint } from './bridge/copilot-cli';
import { defaultEndpoints } from './bridge/endpoints';
import { isProcessAlive } from './bridge/lock-files';
import { startNativeEndpoint, type NativeEndpoint } from './bridge/native';
import { messageOf } from '../shared/error-message';

export interface RuntimeOptions {
  /** Folders from the command line; none means the current directory. */
  workspaces: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Lock-file and discovery-file locations; the CLIs' real ones by default. */
  endpoints?: BridgeEndpoint[];
  log?: (message: string) => void;
  /** The home folder whose dot-folders hold discovery files (~/.clio...); the user's by default. */
  home?: string;
  /** How long a Gemini CLI / Qwen Code session may be without its event stream before it counts as gone. */
  mcpStreamGraceMs?: number;
  /** Where Copilot CLI's lock file goes; `${COPILOT_HOME:-<home>/.copilot}/ide` by default. */
  copilotLockDir?: string;
  /** The `difftray` command's script that Claude Code's hook runs; dist/main/cli.cjs beside this bundle by default. */
  cliPath?: string;
  /** Watch mode's quiet period before a burst of changes on disk is reviewed (limits.ts WATCH_QUIET_MS). */
  watchQuietMs?: number;
  /** How long a connection prompt waits for the person (limits.ts CONNECTION_PROMPT_TIMEOUT_MS). */
  connectionPromptMs?: number;
  /** A minute of a turn review's time limit, in ms (60 000; shorter in tests of the limit). */
  turnMinuteMs?: number;
}

export interface Runtime {
  core: AppCore;
  /** settings.json: every read and write of it goes through here. */
  settings: SettingsStore;
  handler: AppApiHandler;
  bridge: BridgeServer;
  clio: ClioEndpoint;
  native: NativeEndpoint;
  copilot: CopilotCliEndpoint;
  /** Watch mode: the folders whose changes on disk are reviewed (none until turned on). */
  watch: WatchMode;
  /** Pairing agents on other hosts (paired clients in <DIFFTRAY_HOME>/paired-clients.json). */
  pairing: Pairing;
  /**
   * Removes every lock and discovery file now and starts closing the servers: agents no longer find
   * or reach this DiffTray. Idempotent; close() does it first and finishes the job.
   */
  stopServing(): void;
  close(): Promise<void>;
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => console.log(message));
  const home = options.home ?? os.homedir();
  const store = new SettingsStore(path.join(difftrayHome(env), 'settings.json'), { log });
  const settings = store.main;
  const folderContext = { home, env, platform: process.platform, tmpDir: os.tmpdir() };
  const folders = resolveWorkspaceFolders(
    options.workspaces,
    settings,
    options.cwd ?? process.cwd(),
    folderContext,
    log,
  );
  // Before anything can write: clean up after a DiffTray killed mid-write (write-journal.ts).
  const writeJournalDir = path.join(difftrayHome(env), 'writes');
  await recoverLeftovers(writeJournalDir, isProcessAlive, log);
  const core = new AppCore(folders, {
    homeFolder: home,
    writeJournalDir,
    undoJournalDir: path.join(difftrayHome(env), 'undo'),
    log,
    agentHooks: {
      env,
      home,
      // main.cjs and headless.cjs are bundled into dist/main/, beside cli.cjs.
      command: (hookWords) =>
        currentHookCommand(options.cliPath ?? path.join(__dirname, 'cli.cjs'), env, undefined, hookWords),
    },
    connectionRequests: {
      trusted: trustedPrograms(settings, log),
      save: (programs) => rememberTrustedPrograms(store, programs),
      ...(options.connectionPromptMs !== undefined && { timeoutMs: options.connectionPromptMs }),
    },
    settings: store,
  });
  core.watchFiles();
  const stopMirroringPauses = mirrorPausesToFile(core.queue, difftrayHome(env), log);
  const stopMirroringTurns = mirrorTurnsToFile(core, difftrayHome(env), log);
  // Read at start; from then on the app's switch and `difftray watch` change it, and it is written back.
  const watch = await WatchMode.start(core, watchFolders(settings, folders, home, log), {
    log,
    ...(options.watchQuietMs !== undefined && { quietMs: options.watchQuietMs }),
  });
  watch.onChange((watched) => rememberWatchedFolders(store, core.workspaceFolders, home, watched, log));
  const workspace = new WorkspaceEditor(core, {
    context: folderContext,
    remembered: () => store.main.workspaceFolders,
    remember: (list) => store.write({ workspaceFolders: list }),
  });
  // Edited by hand too (the app's own Add and Remove write the file, and then find nothing left to do).
  followSetting(
    store,
    () => store.main.workspaceFolders,
    (before, after) => workspace.followHandEdit(before, after, log),
    { onlyWholeFile: true },
  );
  const bridge = await BridgeServer.start({
    core,
    endpoints: options.endpoints ?? defaultEndpoints(env),
    extraLockFolders: extraLockFolders(settings, home, log),
    log,
    ...(options.mcpStreamGraceMs !== undefined && { mcpStreamGraceMs: options.mcpStreamGraceMs }),
  });
  // Claude Code's lock file follows the setting at once. Entries that are not paths were reported at
  // start; not again at every change of another setting.
  followSetting(
    store,
    () => extraLockFolders(store.main, home, () => {}),
    (_before, after) => bridge.setExtraLockFolders(after),
  );
  const clio = await startClioEndpoint({
    core,
    lockFile: clioBridgeFile(home),
    // Read at each applyDiff, so a change in Settings or in the file applies without a restart.
    autoApply: () => store.settings.autoApply,
    log,
  });
  const pairing = new Pairing({
    file: path.join(difftrayHome(env), 'paired-clients.json'),
    log,
    hostKey: HostKey.loadOrCreate(path.join(difftrayHome(env), 'host-key.pem'), log),
  });
  pairing.onChange(() => core.notePairing(pairing));
  core.notePairing(pairing);
  const native = await startNativeEndpoint({
    core,
    lockDir: difftrayHome(env),
    log,
    watch,
    pairing,
    ...(options.turnMinuteMs !== undefined && { turnMinuteMs: options.turnMinuteMs }),
  });
  const copilot = await startCopilotCliEndpoint({
    core,
    lockDir: options.copilotLockDir ?? copilotLockDir(env, home),
    log,
    ...(options.mcpStreamGraceMs !== undefined && { streamGraceMs: options.mcpStreamGraceMs }),
  });
  // Lock files must not outlive us, even on an unplanned exit: each server's close removes its own
  // synchronously first, so starting the closes removes every lock and discovery file at once.
  const servers = [bridge, clio, native, copilot];
  let serversClosed: Promise<void[]> | undefined;
  const stopServing = () => {
    serversClosed ??= Promise.all(servers.map((server) => server.close()));
  };
  const removeOnExit = () => {
    stopServing();
    stopMirroringPauses();
    stopMirroringTurns();
  };
  process.once('exit', removeOnExit);
  return {
    core,
    settings: store,
    handler: createAppApiHandler(core, { watch, pairing, workspace }),
    bridge,
    clio,
    native,
    copilot,
    watch,
    pairing,
    stopServing,
    close: async () => {
      // First and at once: whatever comes next (a second signal, an app quitting without waiting), no
      // agent finds a DiffTray that is leaving.
      stopServing();
      process.removeListener('exit', removeOnExit);
      await watch.close();
      await serversClosed;
      stopMirroringPauses();
      stopMirroringTurns();
      await core.close();
      store.close();
    },
  };
}

/** Writes the watched folders to settings.json; a file that cannot be changed is said, not fatal. */
function rememberWatchedFolders(
  store: SettingsStore,
  workspaceFolders: readonly string[],
  home: string,
  watched: readonly string[],
  log: (message: string) => void,
): void {
  try {
    store.write({ watchFolders: watchFoldersToRemember(store.main, workspaceFolders, home, watched) });
  } catch (error) {
    log(`Watch mode: the watched folders are not remembered for the next start: ${messageOf(error)}`);
  }
}

/** Writes "Always allow this program" to settings.json; a file that cannot be changed refuses the answer. */
function rememberTrustedPrograms(store: SettingsStore, programs: readonly unknown[]): void {
  try {
    store.write({ trustedPrograms: programs });
  } catch (error) {
    throw new ConnectionRequestError(`The program cannot be remembered: ${messageOf(error)}`);
  }
}

/**
 * Calls `apply(before, after)` each time what `read` takes from settings.json changes, in Settings or by
 * hand. With `onlyWholeFile`, a file with a problem changes nothing: its defaults are not the person's.
 */
function followSetting<T>(
  store: SettingsStore,
  read: () => T,
  apply: (before: T, after: T) => void,
  { onlyWholeFile = false }: { onlyWholeFile?: boolean } = {},
): void {
  let last = read();
  store.onChange(() => {
    if (onlyWholeFile && store.fileState().problem !== undefined) return;
    const next = read();
    if (sameValue(next, last)) return;
    const before = last;
    last = next;
    apply(before, next);
  });
}
