/**
 * Each connection's share of the context work (the walks and searches of commands/context.ts, and
 * get_file_tree): CONTEXT_MAX_JOBS_PER_CLIENT requests running or waiting at once. One more, or one past
 * the pool's full queue, is refused at once with 4006 (CONTEXT_BUSY): nothing is queued for it, and the
 * client asks again once an answer came back. Meanwhile the connection goes on to its next messages.
 */
import { CONTEXT_MAX_JOBS_PER_CLIENT } from '../../../../shared/limits';
import { ErrorCode } from '../../../../shared/native-protocol';
import type { ContextJob, ContextResult } from '../../../core/context/context-jobs';
import { ContextBusyError, ContextWorkerError } from '../../../core/context/context-pool';
import { SearchQueryError } from '../../../core/context/text-search';
import { RequestError, type CommandConnection, type CommandContext } from './command';

/** Context requests each connection has running or waiting. */
const jobsOf = new WeakMap<CommandConnection, number>();

/**
 * Runs `work` (which answers with `respond`) as one of the connection's context requests, answered
 * when done; refused at once (4006) past the connection's share.
 */
export function inContextShare({ connection, answerLater }: CommandContext, work: () => Promise<void>): void {
  const running = jobsOf.get(connection) ?? 0;
  if (running >= CONTEXT_MAX_JOBS_PER_CLIENT) {
    throw new RequestError(
      ErrorCode.CONTEXT_BUSY,
      `This connection already has ${running} context requests running or waiting (the most one client may have): ask again once one is answered`,
    );
  }
  jobsOf.set(connection, running + 1);
  const done = () => jobsOf.set(connection, (jobsOf.get(connection) ?? 1) - 1);
  answerLater(
    (async () => {
      try {
        await work();
      } finally {
        done();
      }
    })(),
  );
}

/** `job` in the pool's workers, dropped unrun if the client is gone first; refusals as RequestErrors. */
export async function inPool<K extends ContextJob['kind']>(
  { services, connection }: CommandContext,
  job: Extract<ContextJob, { kind: K }>,
): Promise<ContextResult<K>> {
  try {
    return await services.contextPool.run<K>(job, () => !connection.closed);
  } catch (error) {
    throw asRequestError(error);
  }
}

function asRequestError(error: unknown): unknown {
  if (error instanceof ContextBusyError) return new RequestError(ErrorCode.CONTEXT_BUSY, error.message);
  if (error instanceof SearchQueryError) return new RequestError(ErrorCode.INVALID_PAYLOAD, error.message);
  if (error instanceof ContextWorkerError) return new RequestError(ErrorCode.INTERNAL, error.message);
  return error;
}
