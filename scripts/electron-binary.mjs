// Finds the Electron binary without triggering the `electron` package's on-demand download (its
// index.js downloads when the binary is missing, which prints noise and can hang offline).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PLATFORM_PATHS = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

function electronPackageDir() {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** Path of the installed Electron binary, or null when this machine has none. */
export function findElectronBinary() {
  if (process.env.ELECTRON_PATH)
    return existsSync(process.env.ELECTRON_PATH) ? process.env.ELECTRON_PATH : null;
  const dir = electronPackageDir();
  if (!dir) return null;
  const pathFile = path.join(dir, 'path.txt');
  const relative = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : (PLATFORM_PATHS[process.platform] ?? 'electron');
  const binary = path.join(dir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}

/**
 * npm 11 skips the electron package's install script, so the binary may never have been fetched.
 * Tries once, quietly and with a time limit; returns the binary or null.
 */
export function downloadElectronBinary(timeoutMs = 180_000) {
  const dir = electronPackageDir();
  if (!dir || !existsSync(path.join(dir, 'install.js'))) return null;
  const result = spawnSync(process.execPath, [path.join(dir, 'install.js')], {
    cwd: dir,
    stdio: 'ignore',
    timeout: timeoutMs,
  });
  return result.status === 0 ? findElectronBinary() : null;
}
