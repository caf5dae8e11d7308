/**
 * `npm start -- --headless`: the whole app without Electron. The UI is served on 127.0.0.1 and its
 * address (with its token) is printed here, on the terminal that started DiffTray, and nowhere else.
 */
import path from 'node:path';
import { parseLaunchArgs } from '../launch-options';
import { checkWorkspaceArgs, LaunchArgsError } from '../workspace-args';
import { installLastResort, raiseOpenFileLimit } from '../process-guard';
import { startHeadlessApp } from './headless-app';
import { messageOf } from '../../shared/error-message';

async function main(): Promise<void> {
  const options = parseLaunchArgs(process.argv.slice(2));
  checkWorkspaceArgs(options.workspaces);
  raiseOpenFileLimit(process.pid, (message) => console.error(message));
  const { runtime, headless, close } = await startHeadlessApp({
    runtime: { workspaces: options.workspaces },
    rendererDir: path.join(__dirname, '..', 'renderer'),
    port: options.port,
    log: (message) => console.log(message),
  });
  console.log(`DiffTray is running headless. Workspace: ${runtime.core.workspaceFolders.join(', ')}`);
  const discovery = [...runtime.bridge.lockFilePaths(), ...runtime.bridge.discoveryFilePaths()];
  console.log(`Bridge listening on 127.0.0.1:${runtime.bridge.port} (discovery: ${discovery.join(', ')})`);
  console.log(`Clio bridge on 127.0.0.1:${runtime.clio.port} (CLIO_IDE_PORT=${runtime.clio.port})`);
  console.log(`Native protocol on 127.0.0.1:${runtime.native.port} (lock file: ${runtime.native.lockFile})`);
  console.log(`Open the UI: ${headless.url}`);
  installLastResort((message) => console.error(message));

  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(`DiffTray failed to start: ${messageOf(error)}`);
  process.exit(error instanceof LaunchArgsError ? error.exitCode : 1);
});
