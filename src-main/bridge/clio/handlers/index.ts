/**
 * Clio's message handlers, one per message type of seed 000 (../messages.ts): the table's type makes a
 * missing entry a compile error, and looking a handler up by a message's type keeps its message type.
 */
import type { z } from 'zod';
import { clioMessageSchemas, type ClioMessage, type ClioMessageType } from '../messages';
import { closeDiff, status } from './client-state';
import { connect } from './connect';
export { connectedMessage } from './connect';
import type { ClioContext, ClioHandler } from './context';
import { openDiff, rangeEdits } from './proposals';

export const clioHandlers: { readonly [T in ClioMessageType]: ClioHandler<T> } = {
  connect,
  openDiff,
  proposeDiff: rangeEdits,
  applyDiff: rangeEdits,
  closeDiff,
  status,
};

const schemas: { readonly [T in ClioMessageType]: z.ZodType<ClioMessage<T>> } = clioMessageSchemas;

/**
 * Validates `raw` as a message of `type` and hands it to that type's handler; a message that fails its
 * schema returns the zod error, and nothing is handled.
 */
export async function handleClioMessage<T extends ClioMessageType>(
  type: T,
  raw: unknown,
  context: ClioContext,
): Promise<z.ZodError | undefined> {
  const parsed = schemas[type].safeParse(raw);
  if (!parsed.success) return parsed.error;
  await clioHandlers[type](parsed.data, context);
  return undefined;
}

export {
  CLIO_AUTH_HEADER,
  CLIO_CLIENT_NAME,
  ClioRequestError,
  type ClioLink,
  type ClioServices,
} from './context';
export { AUTO_APPLIED_NOTE, BEFORE_DIFFERS_NOTE, BEFORE_OF_MISSING_FILE_NOTE } from './proposals';
