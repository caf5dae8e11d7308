/**
 * DiffTray's version, as package.json states it. The bundlers (esbuild, vite) and vitest inline the one
 * field at build time, so nothing reads package.json at run time and no copy of the number can drift.
 */
import { version } from '../package.json';

export const DIFFTRAY_VERSION: string = version;
