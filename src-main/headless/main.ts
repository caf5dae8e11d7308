/**
 * `npm start -- --headless`: the whole app without Electron. The UI is served on 127.0.0.1 and the
 * address (with its token) is printed for the person to open.
 */
import path from 'node:path';
import { parseLaunchArgs } from '../launch-options';
import { installLastResort, raiseOpenFileLimit } from '../process-guard';
import { startRuntime } from '../runtime';
import { HeadlessServer } from './headless-server';
import { messageOf } from '../../shared/error-message';

async function main(): Promise<void> {
  const options = parseLaunchArgs(process.argv.slice(2));
  raiseOpenFileLimit(process.pid, (message) => console.error(message));
  const runtime = await startRuntime({ workspaces: options.workspaces });
  installLastResort((message) => console.error(message));
  const rendererDir = path.join(__dirname, '..', 'renderer');
  const headless = await HeadlessServer.start({
    core: runtime.core,
    handler: runtime.handler,
    rendererDir,
    port: options.port,
    log: (message) => console.log(message),
  });
  console.log(`DiffTray is running headless. Workspace: ${runtime.core.workspaceFolders.join(', ')}`);
  const discovery = [...runtime.bridge.lockFilePaths(), ...runtime.bridge.discoveryFilePaths()];
  console.log(`Bridge listening on 127.0.0.1:${runtime.bridge.port} (discovery: ${discovery.join(', ')})`);
  console.log(`Clio bridge on 127.0.0.1:${runtime.clio.port} (CLIO_IDE_PORT=${runtime.clio.port})`);
  runtime.native.setAppHooks({ headlessUrl: () => headless.url });
  console.log(`Native protocol on 127.0.0.1:${runtime.native.port} (lock file: ${runtime.native.lockFile})`);
  console.log(`Open the UI: ${headless.url}`);

  const stop = async () => {
    await headless.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(`DiffTray failed to start: ${messageOf(error)}`);
  process.exit(1);
});
