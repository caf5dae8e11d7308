/**
 * The command line of `npm start` / the packaged app: `--workspace <dir>` (repeatable), `--headless`, `--port`,
 * `--hidden` (started at login: stay in the tray) and `--new-instance` (start a DiffTray of its own or fail,
 * never hand over to the one running: single-instance.ts).
 */
import { parseArgs } from 'node:util';

export interface LaunchOptions {
  workspaces: string[];
  headless: boolean;
  /** Port of the headless UI server; 0 picks a free one. */
  port: number;
  /** Start in the tray without showing the window. */
  hidden: boolean;
  /** Refuse to start while another DiffTray runs for this home, rather than hand over to it. */
  newInstance: boolean;
}

export function parseLaunchArgs(argv: readonly string[]): LaunchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: 'string', multiple: true, short: 'w' },
      headless: { type: 'boolean', default: false },
      port: { type: 'string' },
      hidden: { type: 'boolean', default: false },
      'new-instance': { type: 'boolean', default: false },
    },
    // Electron and Chromium add switches of their own; they are not ours to reject.
    strict: false,
    allowPositionals: true,
  });
  // With strict: false, an option given without its value parses as `true`: refuse it, don't guess.
  const port = values.port === undefined ? 0 : parsePort(values.port);
  const workspaces = values.workspace ?? [];
  if (workspaces.some((w) => typeof w !== 'string' || w === ''))
    throw new Error('--workspace needs a folder');
  return {
    workspaces: workspaces as string[],
    headless: values.headless === true,
    port,
    hidden: values.hidden === true,
    newInstance: values['new-instance'] === true,
  };
}

function parsePort(value: string | boolean): number {
  const port = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid --port: ${String(value)}`);
  return port;
}
