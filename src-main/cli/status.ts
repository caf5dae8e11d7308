/**
 * `difftray status`: whether DiffTray runs, its pending reviews and connected clients (asked of the app
 * itself over the native protocol), and `difftray open`: shows the window, or has DiffTray open its
 * headless UI in the person's browser. Neither says hello, so neither appears as a client. Neither
 * learns the headless UI's address: it carries the token that decides reviews, and whoever runs this
 * command may be the agent under review.
 */
import os from 'node:os';
import { clioBridgeFile } from '../core/setup/discovery-locations';
import type { ShowWindowResponse, StatusResponse, WatchIssueInfo } from '../../shared/native-protocol';
import { NativeClient } from './client';
import { findDiffTray, type DiscoveryOptions } from './discovery';
import { CliError } from './errors';
import { readRegularFile } from '../core/disk/regular-file';

export async function status(io: DiscoveryOptions & { out: (line: string) => void }): Promise<number> {
  const { lock } = findDiffTray(io);
  const client = await NativeClient.connect(lock);
  let answer: StatusResponse;
  try {
    answer = await client.request<StatusResponse>('status');
  } finally {
    client.close();
  }
  io.out(`DiffTray is running (pid ${answer.pid}, port ${lock.port}, version ${answer.server_version})`);
  io.out(`Workspace: ${answer.workspace_folders.join(', ')}`);
  io.out(`Pending reviews: ${answer.pending}`);
  io.out(`Connected clients: ${answer.clients.length === 0 ? 'none' : answer.clients.length}`);
  for (const client of answer.clients) {
    const version = client.version ? ` ${client.version}` : '';
    const since = new Date(client.since).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const said = client.status ? ` — ${client.status}` : '';
    io.out(`  ${client.name}${version} (${client.protocol}, since ${since})${said}`);
  }
  const watched = answer.watched_folders;
  // Said by the app's own endpoint (older servers and bare endpoints say nothing).
  if (watched?.length === 0) io.out('Watch mode: off (difftray watch turns it on for a folder)');
  else if (watched) io.out(`Watch mode: reviewing changes on disk in ${watched.join(', ')}`);
  for (const line of watchIssueLines(answer.watch_issues ?? [])) io.out(line);
  // A paired DiffTray runs on another host: this host's Clio bridge file is not its, whatever pid it names.
  const clioPort = lock.via ? undefined : clioPortOf(answer.pid);
  if (clioPort !== undefined) io.out(`Clio bridge: port ${clioPort} (export CLIO_IDE_PORT=${clioPort})`);
  return 0;
}

export async function open(io: DiscoveryOptions & { out: (line: string) => void }): Promise<number> {
  const { lock } = findDiffTray(io);
  const client = await NativeClient.connect(lock);
  let answer: ShowWindowResponse;
  try {
    answer = await client.request<ShowWindowResponse>('show_window');
  } finally {
    client.close();
  }
  if (answer.shown) {
    io.out(answer.in_browser ? 'DiffTray opened in your browser' : 'DiffTray window shown');
    return 0;
  }
  throw new CliError(
    'DiffTray could not show its window or open a browser: open the address it printed on the terminal that started it',
  );
}

/** What keeps watched folders from being reviewed whole: paused ones, and folders the system will not watch. */
function watchIssueLines(issues: readonly WatchIssueInfo[]): string[] {
  const lines: string[] = [];
  for (const { folder, paused, unwatched } of issues) {
    if (paused) {
      lines.push(
        `  PAUSED in ${folder}: ${paused.reason}; ${paused.held_changes} change(s) held, not reviewed yet ` +
          `(resume: difftray watch ${folder})`,
      );
    }
    if (unwatched) {
      lines.push(
        `  NOT WATCHED in ${folder}: ${unwatched.count} folder(s), their changes are not seen ` +
          `(first: ${unwatched.first}: ${unwatched.reason})`,
      );
      if (unwatched.fix) {
        lines.push(`    ${unwatched.fix.explain} Fix:`);
        for (const command of unwatched.fix.commands) lines.push(`      ${command}`);
        lines.push(`    ${unwatched.fix.then}`);
      }
    }
  }
  return lines;
}

/** The Clio bridge port, if ~/.clio/ide/bridge.json belongs to this DiffTray. */
function clioPortOf(pid: number): number | undefined {
  try {
    const info = JSON.parse(readRegularFile(clioBridgeFile(os.homedir()))) as {
      pid?: unknown;
      port?: unknown;
    };
    return info.pid === pid && typeof info.port === 'number' ? info.port : undefined;
  } catch {
    return undefined;
  }
}
