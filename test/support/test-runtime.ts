/**
 * Starts the real runtime (core + bridge on loopback) with every file it writes kept in temp folders:
 * a workspace, and a fake home for lock files and settings. Nothing touches the real ~/.claude.
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
  claudeLockDir: string;
  nexusLockDir: string;
  close(): Promise<void>;
}

export async function startTestRuntime(): Promise<TestRuntime> {
  const temp = makeTempDir('rt');
  const root = realpathSync(temp.dir);
  const workspace = path.join(root, 'workspace');
  const home = path.join(root, 'home');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = { CLAUDE_CONFIG_DIR: path.join(home, '.claude'), DIFFTRAY_HOME: path.join(home, '.difftray') };
  const runtime = await startRuntime({
    workspaces: [workspace],
    env,
    endpoints: defaultEndpoints(env, home),
    log: () => {},
  });
  return {
    runtime,
    workspace,
    home,
    claudeLockDir: path.join(home, '.claude', 'ide'),
    nexusLockDir: path.join(home, '.nexus3', 'ide'),
    close: async () => {
      await runtime.close();
      temp.cleanup();
    },
  };
}
