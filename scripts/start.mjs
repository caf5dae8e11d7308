// `npm start`: the Electron app where an Electron binary exists (fetched on first start if need be),
// else, or with --headless, the headless server whose UI opens in any browser.
// Arguments after `--` are passed on. DIFFTRAY_NO_ELECTRON_DOWNLOAD=1 skips the fetch attempt.
import { spawn } from 'node:child_process';
import { downloadElectronBinary, findElectronBinary } from './electron-binary.mjs';
import { APP_V8_FLAGS, withAppMallocTunables } from './node-flags.mjs';

const args = process.argv.slice(2);
const headless = args.includes('--headless');

const FALLBACK = 'not available on this machine; starting DiffTray headless instead.';

/** Says in one line what happened: found, fetched, or falling back to headless. */
function electronBinary() {
  const found = findElectronBinary();
  if (found) return found;
  if (process.env.DIFFTRAY_NO_ELECTRON_DOWNLOAD) {
    console.log(`Electron binary ${FALLBACK}`);
    return null;
  }
  process.stdout.write('Electron binary not installed; fetching it... ');
  const fetched = downloadElectronBinary();
  console.log(fetched ? 'done.' : FALLBACK);
  return fetched;
}

const electron = headless ? null : electronBinary();
const child = electron
  ? spawn(electron, [`--js-flags=${APP_V8_FLAGS.join(' ')}`, 'dist/main/main.cjs', ...args], {
      stdio: 'inherit',
    })
  : spawn(process.execPath, [...APP_V8_FLAGS, 'dist/main/headless.cjs', ...args], {
      stdio: 'inherit',
      env: withAppMallocTunables(process.env),
    });

// Output nobody reads any more (`npm start | tee log` after Ctrl-C, a closed terminal) is dropped: an
// EPIPE here must not end the launcher while DiffTray is still removing its lock files.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
// Passed on, so that DiffTray ends the way it was asked to (it removes its lock files on each); a signal
// the child already had from the terminal is taken once.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
