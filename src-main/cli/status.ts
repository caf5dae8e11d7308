/**
 * `difftray status`: whether DiffTray runs, its pending reviews and connected clients (asked of the app
 * itself over the native protocol), and `difftray open`: shows the window, or prints the headless UI's
 * address. Neither says hello, so neither appears as a client.
 */
import os from 'node:os';
import { clioBridgeFile } from '../core/discovery-locations';
import type { ShowWindowResponse, StatusResponse } from '../../shared/native-protocol';
import { NativeClient } from './client';
import { findDiffTray, type DiscoveryOptions } from './discovery';
import { CliError } from './errors';
import { readRegularFile } from '../core/regular-file';

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
  // A paired DiffTray runs on another host: this host's Clio bridge file is not its, whatever pid it names.
  const clioPort = lock.via ? undefined : clioPortOf(answer.pid);
  if (clioPort !== undefined) io.out(`Clio bridge: port ${clioPort} (export CLIO_IDE_PORT=${clioPort})`);
  if (answer.headless_url) io.out(`UI: ${answer.headless_url}`);
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
    io.out('DiffTray window shown');
    return 0;
  }
  if (answer.headless_url) {
    // The address alone, so that `xdg-open "$(difftray open)"` works.
    io.out(answer.headless_url);
    return 0;
  }
  throw new CliError('DiffTray has no window to show and no headless UI address');
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
