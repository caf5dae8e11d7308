/**
 * The app API contract: every call between a window and main, each written down once as its parameter
 * schema and answer type (call-spec.ts), in the file of its concern. Everything else is derived from
 * this map: the method names, the parameter and answer types, the window's typed `call`
 * (client.ts) and main's handler table (core/app-api-handler.ts), which must serve every method.
 */
import type { z } from 'zod';
import type { CallSpec } from './call-spec';
import { connectionCalls } from './connections';
import { folderCalls } from './folders';
import { reviewCalls } from './reviews';
import { settingsCalls } from './settings';
import { stateCalls } from './state';
import { undoWriteCalls } from './undo-writes';

/** Each concern's calls; a method name may appear in only one of them (test/unit/app-api-contract.test.ts). */
export const appApiConcerns = {
  state: stateCalls,
  reviews: reviewCalls,
  connections: connectionCalls,
  folders: folderCalls,
  undoWrites: undoWriteCalls,
  settings: settingsCalls,
} satisfies Record<string, Record<string, CallSpec>>;

export const appApiContract = {
  ...stateCalls,
  ...reviewCalls,
  ...connectionCalls,
  ...folderCalls,
  ...undoWriteCalls,
  ...settingsCalls,
} satisfies Record<string, CallSpec>;

export type AppApiContract = typeof appApiContract;

/** A call's name, as it travels on the wire. */
export type AppApiMethod = keyof AppApiContract;

/** What a call takes: the object sent on the wire, and what main's handler gets once it passed its schema. */
export type AppApiParams<M extends AppApiMethod> = z.infer<AppApiContract[M]['params']>;

/** What a call answers. */
export type AppApiResult<M extends AppApiMethod> = z.infer<AppApiContract[M]['result']>;

/**
 * The same map, typed per method, so code generic in the method (the handler's dispatch, the window's
 * call) gets that method's parameter and answer types from it.
 */
export const appApiSpecs: {
  [M in AppApiMethod]: { params: z.ZodType<AppApiParams<M>>; result: z.ZodType<AppApiResult<M>> };
} = appApiContract;

export function isAppApiMethod(value: unknown): value is AppApiMethod {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(appApiContract, value);
}
