/**
 * The built main-process bundles (scripts/build-main.mjs → dist/main/), for tests that run the real
 * `difftray` command or the headless app as a child process. dist/ is not committed: such a test builds
 * first, in its beforeAll.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
/** The `difftray` command as the package installs it. */
export const DIFFTRAY_BIN = path.join(ROOT, 'bin', 'difftray.cjs');
/** How long a test file's beforeAll may take to build. */
export const BUILD_TIMEOUT_MS = 120_000;

export function buildMain(): void {
  const built = spawnSync(process.execPath, ['scripts/build-main.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
}
