/**
 * The environment the desktop app (Electron) runs in during a test: the sandbox of
 * test/support/headless-process.ts in `home`, with TMPDIR inside `home` too (Gemini's discovery file then
 * lies beside the other agents'), and Windows' home and Electron's config folder (its userData) there as
 * well. Only the variables that are set: Playwright launches Electron with strings only.
 */
import path from 'node:path';
import { sandboxEnv } from '../../test/support/headless-process';

export function desktopSandboxEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: NodeJS.ProcessEnv = {
    ...sandboxEnv(home, home),
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    ...extra,
  };
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
