/**
 * Starts the real runtime (core + bridge on loopback) with every file it writes kept in temp folders:
 * a workspace, a fake home for lock files and settings, and a fake temp folder for Gemini CLI's
 * discovery files. Nothing touches the real ~/.claude, ~/.openclaude, ~/.qwen or <tmp>/gemini.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { defaultEndpoints } from '../../src-main/bridge/endpoints';
import { startRuntime, type Runtime } from '../../src-main/runtime';
import { makeTempDir } from './temp';

export interface TestRuntime {
  runtime: Runtime;
  workspace: string;
  home: string;
  /** Stands in for os.tmpdir(): Gemini CLI's discovery folder is `<tmpDir>/gemini/ide`. */
  tmpDir: string;
  claudeLockDir: string;
  /** OpenClaude's lock folder, `~/.openclaude/ide`. */
  openClaudeLockDir: string;
  nexusLockDir: string;
  geminiDiscoveryDir: string;
  qwenLockDir: string;
  clioBridgeFile: string;
  /** Closes the runtime and starts it again on the same folders (settings, lock files): an app restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface TestRuntimeOptions {
  /** How long a Gemini/Qwen session may lose its event stream before it counts as gone. */
  mcpStreamGraceMs?: number;
  /** Runs before the runtime starts, with the fake home (e.g. to write `~/.difftray/settings.json`). */
  beforeStart?: (home: string) => void;
  log?: (message: string) => void;
  /** Watch mode's quiet period (short in tests, which wait for reviews rather than time). */
  watchQuietMs?: number;
  /** How long a connection prompt waits for the person (short in tests of the time limit). */
  connectionPromptMs?: number;
  /** A minute of a turn review's time limit, in ms (short in tests of the limit). */
  turnMinuteMs?: number;
  /**
   * Started without `--workspace` (as from a launcher): the workspace is what settings.json lists, and
   * with nothing there the app asks. By default the temp workspace is given.
   */
  noWorkspaceGiven?: boolean;
  /** More environment for the runtime (CODEX_HOME...), beside the temp CLAUDE_CONFIG_DIR and DIFFTRAY_HOME. */
  env?: Record<string, string>;
  /** The workspace as `<home>/<name>` (shown as `~/<name>`), for a scene like a person's; else a temp folder. */
  workspaceInHome?: string;
}

export async function startTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const temp = makeTempDir('rt');
  const root = realpathSync(temp.dir);
  const home = path.join(root, 'home');
  const workspace = options.workspaceInHome
    ? path.join(home, options.workspaceInHome)
    : path.join(root, 'workspace');
  const tmpDir = path.join(root, 'tmp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(tmpDir, { recursive: true });
  const env = {
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    DIFFTRAY_HOME: path.join(home, '.difftray'),
    ...options.env,
  };
  options.beforeStart?.(home);
  const start = () =>
    startRuntime({
      workspaces: options.noWorkspaceGiven ? [] : [workspace],
      env,
      endpoints: defaultEndpoints(env, home, tmpDir),
      home,
      // The built command (scripts/build-main.mjs), so a hook set up from the app runs from any folder.
      cliPath: path.resolve(__dirname, '..', '..', 'dist', 'main', 'cli.cjs'),
      log: options.log ?? (() => {}),
      ...(options.mcpStreamGraceMs !== undefined && { mcpStreamGraceMs: options.mcpStreamGraceMs }),
      ...(options.watchQuietMs !== undefined && { watchQuietMs: options.watchQuietMs }),
      ...(options.connectionPromptMs !== undefined && { connectionPromptMs: options.connectionPromptMs }),
      ...(options.turnMinuteMs !== undefined && { turnMinuteMs: options.turnMinuteMs }),
    });
  let runtime = await start();
  return {
    get runtime() {
      return runtime;
    },
    workspace,
    home,
    tmpDir,
    claudeLockDir: path.join(home, '.claude', 'ide'),
    openClaudeLockDir: path.join(home, '.openclaude', 'ide'),
    nexusLockDir: path.join(home, '.nexus3', 'ide'),
    geminiDiscoveryDir: path.join(tmpDir, 'gemini', 'ide'),
    qwenLockDir: path.join(home, '.qwen', 'ide'),
    clioBridgeFile: path.join(home, '.clio', 'ide', 'bridge.json'),
    restart: async () => {
      await runtime.close();
      runtime = await start();
    },
    close: async () => {
      await runtime.close();
      temp.cleanup();
    },
  };
}
