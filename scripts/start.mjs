// `npm start`: the Electron app where an Electron binary exists, else (or with --headless) the
// headless server, whose UI opens in any browser. Arguments after `--` are passed on.
import { spawn } from 'node:child_process';
import { findElectronBinary } from './electron-binary.mjs';

const args = process.argv.slice(2);
const electron = args.includes('--headless') ? null : findElectronBinary();

let child;
if (electron) {
  child = spawn(electron, ['dist/main/main.cjs', ...args], { stdio: 'inherit' });
} else {
  if (!args.includes('--headless')) {
    console.log('Electron binary not available on this machine; starting DiffTray headless instead.');
  }
  child = spawn(process.execPath, ['dist/main/headless.cjs', ...args], { stdio: 'inherit' });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
