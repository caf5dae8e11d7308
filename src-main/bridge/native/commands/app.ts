/** `status` (what DiffTray is doing, and the client's own status line) and `show_window`. */
import type { WatchFolderIssue } from '../../../../shared/app-api';
import {
  ErrorCode,
  type ShowWindowResponse,
  type StatusResponse,
  type WatchIssueInfo,
} from '../../../../shared/native-protocol';
import { defineCommand, RequestError } from './command';

export const status = defineCommand('status', (payload, { services, connection, respond }) => {
  const { port } = services;
  if (payload.message !== undefined) {
    const agent = connection.session?.agent;
    if (!agent) {
      throw new RequestError(ErrorCode.SESSION_UNKNOWN, 'No session: send "hello" before a status message');
    }
    const level = payload.level ?? 'info';
    agent.setStatus(level === 'info' ? payload.message : `${level}: ${payload.message}`);
  }
  // A paired host learns nothing of this machine: not its folders nor its other clients. No answer says
  // where the headless UI is: its address carries the token that decides reviews.
  const local = connection.paired === undefined;
  const response: StatusResponse = {
    server_version: services.serverVersion,
    pid: process.pid,
    workspace_folders: local ? [...port.workspaceFolders] : [],
    pending: port.pendingCount(),
    clients: (local ? port.connectedClients() : []).map((client) => ({
      name: client.name,
      protocol: client.protocol,
      ...(client.version !== undefined && { version: client.version }),
      since: client.connectedAt,
      ...(client.status && { status: client.status.text }),
    })),
    ...(services.watch && local && { watched_folders: services.watch.watchedFolders }),
    ...(services.watch && local && { watch_issues: services.watch.issues.map(watchIssueInfo) }),
  };
  respond(response);
});

/** A watch issue as `status` says it. */
function watchIssueInfo({ folder, paused, unwatched }: WatchFolderIssue): WatchIssueInfo {
  return {
    folder,
    ...(paused && { paused: { reason: paused.reason, held_changes: paused.heldChanges } }),
    ...(unwatched && {
      unwatched: {
        count: unwatched.count,
        first: unwatched.first,
        reason: unwatched.reason,
        ...(unwatched.fix && { fix: unwatched.fix }),
      },
    }),
  };
}

/** The window (desktop), or the headless UI opened in the person's browser by DiffTray, never its address. */
export const showWindow = defineCommand('show_window', async (_payload, { services, respond }) => {
  const hooks = services.hooks();
  let response: ShowWindowResponse = { shown: false };
  if (hooks.showWindow) {
    hooks.showWindow();
    response = { shown: true };
  } else if (hooks.openInBrowser) {
    response = (await hooks.openInBrowser()) ? { shown: true, in_browser: true } : { shown: false };
  }
  respond(response);
});
