/** `closeDiff` (the CLI no longer waits for a file's review) and `status` (the client's status line). */
import path from 'node:path';
import { resolveRealPath } from '../../../core/workspace/workspace-paths';
import { sessionOf, type ClioHandler } from './context';

export const CLOSED_BY_CLIENT = 'closed by the client';

export const closeDiff: ClioHandler<'closeDiff'> = (message, context) => {
  const session = sessionOf(context);
  const target = path.isAbsolute(message.file) ? resolveRealPath(message.file) : message.file;
  // The review's own answer is a diffRejected {reason: 'closed'}, so a CLI waiting on it never hangs.
  session.cancel(CLOSED_BY_CLIENT, (request) => request.tabName === target);
};

export const status: ClioHandler<'status'> = (message, context) => {
  const level = message.level ?? 'info';
  sessionOf(context).setStatus(level === 'info' ? message.message : `${level}: ${message.message}`);
};
