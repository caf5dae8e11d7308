/**
 * Opens the person's browser on the headless UI. DiffTray's own process launches it, so the address
 * (which carries the UI token) never passes through the client that asked (`show_window`,
 * `difftray open`): the party under review is never told what decides a review.
 */
import { spawn } from 'node:child_process';

/** Opens `url` in the person's browser; resolves false when no opener could be started. */
export type BrowserOpener = (url: string) => Promise<boolean>;

/**
 * The program that opens an address, and its arguments: $BROWSER when set (a program's name or path, as
 * xdg-open and many tools read it), else the platform's opener. No shell: the URL is one argument.
 */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv = {},
): { command: string; args: string[] } {
  if (env.BROWSER) return { command: env.BROWSER, args: [url] };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in that re-parses its line; the URL handler takes the address as it is.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

export function systemBrowserOpener(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): BrowserOpener {
  return (url) =>
    new Promise((resolve) => {
      const { command, args } = browserCommand(url, platform, env);
      const child = spawn(command, args, { detached: true, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    });
}

/** How long after opening the browser another request is answered without opening it again. */
export const BROWSER_QUIET_MS = 2000;

/**
 * At most one launch per `quietMs`: a client asking again and again (an agent, a fuzz run) does not
 * flood the person with tabs. A request inside the quiet time gets the last launch's outcome.
 */
export function throttledOpener(
  open: BrowserOpener,
  quietMs = BROWSER_QUIET_MS,
  now: () => number = Date.now,
): BrowserOpener {
  let last: { at: number; opened: Promise<boolean> } | undefined;
  return (url) => {
    const at = now();
    if (last && at - last.at < quietMs) return last.opened;
    last = { at, opened: open(url) };
    return last.opened;
  };
}
