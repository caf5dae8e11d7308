/**
 * Wires the parts every way of running DiffTray shares: core, the app API handler, and the bridge
 * with its lock files. The Electron shell and the headless server each add only their carrier.
 */
import path from 'node:path';
import { createAppApiHandler, type AppApiHandler } from './core/app-api-handler';
import { AppCore } from './core/app-core';
import { difftrayHome, loadSettings, resolveWorkspaceFolders } from './core/settings';
import type { BridgeEndpoint } from './bridge/bridge-server';
import { BridgeServer } from './bridge/bridge-server';
import { defaultEndpoints } from './bridge/endpoints';

export interface RuntimeOptions {
  /** Folders from the command line; none means the current directory. */
  workspaces: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Lock-file and discovery-file locations; the CLIs' real ones by default. */
  endpoints?: BridgeEndpoint[];
  log?: (message: string) => void;
  /** How long a Gemini CLI / Qwen Code session may be without its event stream before it counts as gone. */
  mcpStreamGraceMs?: number;
}

export interface Runtime {
  core: AppCore;
  handler: AppApiHandler;
  bridge: BridgeServer;
  close(): Promise<void>;
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => console.log(message));
  const settings = loadSettings(path.join(difftrayHome(env), 'settings.json'), log);
  const folders = resolveWorkspaceFolders(options.workspaces, settings, options.cwd ?? process.cwd());
  const core = new AppCore(folders);
  core.watchFiles();
  const bridge = await BridgeServer.start({
    core,
    endpoints: options.endpoints ?? defaultEndpoints(env),
    log,
    ...(options.mcpStreamGraceMs !== undefined && { mcpStreamGraceMs: options.mcpStreamGraceMs }),
  });
  // Lock files must not outlive us, even on an unplanned exit.
  const removeOnExit = () => void bridge.close();
  process.once('exit', removeOnExit);
  return {
    core,
    handler: createAppApiHandler(core),
    bridge,
    close: async () => {
      process.removeListener('exit', removeOnExit);
      await bridge.close();
      await core.close();
    },
  };
}
