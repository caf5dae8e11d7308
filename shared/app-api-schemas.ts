/** Validation of AppApi call parameters, applied by main to whatever a carrier delivers. */
import { z } from 'zod';
import type { AppApiMethod } from './app-api';
import { appSettingsPatchSchema } from './app-settings';
import { fileTextField, noteField, pathField } from './field-limits';
import { MAX_PATH_CHARS } from './limits';

const reviewId = z.string().min(1).max(200);
const fileIndex = z.number().int().min(0);
const decision = z.enum(['pending', 'accepted', 'rejected']);
const lineIndexes = z.array(z.number().int().min(0)).max(1_000_000);

/** Parameter schemas of every call a carrier may forward; keyed by method name. */
export const appApiCallSchemas = {
  getSnapshot: z.object({}),
  focusReview: z.object({ reviewId: reviewId.nullable() }),
  showingFile: z.object({ reviewId, fileIndex }),
  getReviewContent: z.object({ reviewId }),
  decideHunks: z.object({
    reviewId,
    fileIndex,
    hunkIndexes: z.array(z.number().int().min(0)).max(100_000),
    decision,
  }),
  decideLines: z.object({
    reviewId,
    fileIndex,
    hunkIndex: z.number().int().min(0),
    lines: z.object({ base: lineIndexes, proposed: lineIndexes }),
    decision,
  }),
  decideFile: z.object({ reviewId, fileIndex, decision }),
  decideAll: z.object({ reviewId, decision }),
  editProposal: z.object({ reviewId, fileIndex, proposedText: fileTextField() }),
  undo: z.object({ reviewId }),
  rebase: z.object({ reviewId, fileIndex }),
  submit: z.object({ reviewId, note: noteField().optional() }),
  reject: z.object({ reviewId, reason: noteField().optional() }),
  disconnectClient: z.object({ clientId: z.string().min(1).max(200) }),
  setClientPaused: z.object({ key: z.string().min(1).max(400), paused: z.boolean() }),
  claudeHooksSetup: z.object({ apply: z.boolean() }),
  setFolderWatched: z.object({ folder: pathField().min(1), watched: z.boolean() }),
  startPairing: z.object({}),
  cancelPairing: z.object({}),
  revokePairedClient: z.object({ id: z.string().min(1).max(200) }),
  sendSelection: z.object({
    reviewId,
    fileIndex,
    side: z.enum(['base', 'proposed']),
    startLine: z.number().int().min(0),
    endLine: z.number().int().min(0),
  }),
  answerConnectionRequest: z.object({
    requestId: z.string().min(1).max(200),
    answer: z.enum(['once', 'always', 'deny']),
  }),
  revokeTrustedProgram: z.object({
    key: z
      .string()
      .min(1)
      .max(3 * MAX_PATH_CHARS),
  }),
  undoWrites: z.object({ id: z.string().min(1).max(400) }),
  addWorkspaceFolder: z.object({ folder: pathField().min(1) }),
  removeWorkspaceFolder: z.object({ folder: pathField().min(1) }),
  pickFolder: z.object({}),
  updateSettings: appSettingsPatchSchema,
} as const satisfies Record<AppApiMethod, z.ZodType>;

export type AppApiParams<M extends AppApiMethod> = z.infer<(typeof appApiCallSchemas)[M]>;

export function isAppApiMethod(value: unknown): value is AppApiMethod {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(appApiCallSchemas, value);
}
