/** `closeDiff` (the CLI no longer waits for a file's review) and `status` (the client's status line). */
import path from 'node:path';
import { resolveRealPath } from '../../../core/workspace-paths';
import { clientOf, type ClioHandler } from './context';

export const CLOSED_BY_CLIENT = 'closed by the client';

export const closeDiff: ClioHandler<'closeDiff'> = (message, context) => {
  const client = clientOf(context);
  const target = path.isAbsolute(message.file) ? resolveRealPath(message.file) : message.file;
  // The review's own answer is a diffRejected {reason: 'closed'}, so a CLI waiting on it never hangs.
  context.services.core.queue.cancelWhere(
    (request) => request.client.id === client.id && request.tabName === target,
    CLOSED_BY_CLIENT,
  );
};

export const status: ClioHandler<'status'> = (message, context) => {
  const level = message.level ?? 'info';
  context.services.core.clients.setStatus(
    clientOf(context).id,
    level === 'info' ? message.message : `${level}: ${message.message}`,
  );
};
