/** Validation of AppApi call parameters, applied by main to whatever a carrier delivers. */
import { z } from 'zod';
import type { AppApiMethod } from './app-api';

const reviewId = z.string().min(1).max(200);
const fileIndex = z.number().int().min(0);
const decision = z.enum(['pending', 'accepted', 'rejected']);

/** Parameter schemas of every call a carrier may forward; keyed by method name. */
export const appApiCallSchemas = {
  getSnapshot: z.object({}),
  getReviewContent: z.object({ reviewId }),
  decideHunks: z.object({
    reviewId,
    fileIndex,
    hunkIndexes: z.array(z.number().int().min(0)).max(100_000),
    decision,
  }),
  decideAll: z.object({ reviewId, decision }),
  editProposal: z.object({ reviewId, fileIndex, proposedText: z.string() }),
  submit: z.object({ reviewId }),
  reject: z.object({ reviewId, reason: z.string().max(10_000).optional() }),
} as const satisfies Record<AppApiMethod, z.ZodType>;

export type AppApiParams<M extends AppApiMethod> = z.infer<(typeof appApiCallSchemas)[M]>;

export function isAppApiMethod(value: unknown): value is AppApiMethod {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(appApiCallSchemas, value);
}
