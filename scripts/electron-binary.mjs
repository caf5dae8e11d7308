// Where the Electron binary is, or null when this machine has none (its download is not possible
// everywhere: npm 11 skips install scripts, and some networks cannot reach the release host).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export function findElectronBinary() {
  if (process.env.ELECTRON_PATH)
    return existsSync(process.env.ELECTRON_PATH) ? process.env.ELECTRON_PATH : null;
  try {
    const binary = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}
