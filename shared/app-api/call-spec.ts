/**
 * How one app API call is written down: the schema its parameters must pass (they come from a window, so
 * main checks them before anything reaches core) and the type of its answer. Every call's entry lives in
 * the file of its concern; contract.ts gathers them into the one map both ends are typed from.
 */
import { z } from 'zod';

export interface CallSpec {
  params: z.ZodType;
  result: z.ZodType;
}

/**
 * The type of a call's answer. Main builds its answers itself, so they are not checked again at run
 * time: the schema accepts any value and only carries the type to both ends.
 */
export const answers = <T>() => z.custom<T>();

/** Fields many calls take. */
export const reviewIdField = z.string().min(1).max(200);
export const fileIndexField = z.number().int().min(0);
export const decisionField = z.enum(['pending', 'accepted', 'rejected']);
