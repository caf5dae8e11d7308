/**
 * `npm start -- --headless`: the whole app without Electron. The UI is served on 127.0.0.1 and its
 * address (with its token) is printed here, on the terminal that started DiffTray, and nowhere else (a
 * second start gets the address without it, and has this one open the UI in the person's browser).
 */
import path from 'node:path';
import { parseLaunchArgs } from '../launch-options';
import { checkWorkspaceArgs, LaunchArgsError } from '../workspace-args';
import { ignoreClosedOutput, installLastResort, raiseOpenFileLimit } from '../process-guard';
import {
  askToShow,
  claimInstance,
  printSecondStart,
  secondStart,
  type OwnInstance,
} from '../single-instance';
import { difftrayHome } from '../core/settings/settings';
import { startHeadlessApp, type HeadlessApp } from './headless-app';
import { messageOf } from '../../shared/error-message';

/** The signals that end DiffTray: Ctrl-C, `kill`, a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How long closing may take before the process exits anyway (its lock files are gone by then). */
const STOP_GRACE_MS = 5000;

async function main(): Promise<void> {
  ignoreClosedOutput();
  const options = parseLaunchArgs(process.argv.slice(2));
  checkWorkspaceArgs(options.workspaces);
  const claim = await claimInstance({ home: difftrayHome(process.env), shell: 'headless' });
  if (claim.kind !== 'claimed') {
    const said = secondStart(claim, { newInstance: options.newInstance, show: askToShow });
    printSecondStart(said);
    process.exitCode = said.exitCode;
    return;
  }
  const { instance } = claim;
  // From here on a signal ends DiffTray through leave(): one arriving while it starts waits for the start.
  let app: HeadlessApp | undefined = undefined;
  let stopSignal: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    // Ctrl-C reaches this process from the terminal and again from `npm start`'s launcher: once is enough.
    if (stopSignal) return;
    stopSignal = signal;
    if (app) leave(app, instance, signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
  raiseOpenFileLimit(process.pid, (message) => console.error(message));
  app = await startHeadlessApp({
    runtime: { workspaces: options.workspaces },
    rendererDir: path.join(__dirname, '..', 'renderer'),
    port: options.port,
    log: (message) => console.log(message),
  }).catch((error: unknown) => {
    instance.release();
    throw error;
  });
  const { runtime, headless } = app;
  // A second start asks this one to show itself: the UI opens in the person's browser.
  instance.serving({ port: runtime.native.port, uiPort: headless.port }, () => void app?.show());
  console.log(`DiffTray is running headless. Workspace: ${runtime.core.workspaceFolders.join(', ')}`);
  const discovery = [...runtime.bridge.lockFilePaths(), ...runtime.bridge.discoveryFilePaths()];
  console.log(`Bridge listening on 127.0.0.1:${runtime.bridge.port} (discovery: ${discovery.join(', ')})`);
  console.log(`Clio bridge on 127.0.0.1:${runtime.clio.port} (CLIO_IDE_PORT=${runtime.clio.port})`);
  console.log(`Native protocol on 127.0.0.1:${runtime.native.port} (lock file: ${runtime.native.lockFile})`);
  console.log(`Open the UI: ${headless.url}`);
  installLastResort((message) => console.error(message));
  if (stopSignal) leave(app, instance, stopSignal);
}

/** Ends DiffTray: its lock files and instance record first, at once; then the rest, closed in time. */
function leave(app: HeadlessApp, instance: OwnInstance, signal: NodeJS.Signals): void {
  // Before anything that could wait: agents, and a new start, stop finding this DiffTray at once.
  app.runtime.stopServing();
  instance.release();
  console.log(`DiffTray is stopping (${signal}).`);
  setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`DiffTray did not close cleanly: ${messageOf(error)}`);
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  console.error(`DiffTray failed to start: ${messageOf(error)}`);
  process.exit(error instanceof LaunchArgsError ? error.exitCode : 1);
});
