/**
 * What carries the app API between a window and main: the Electron preload (contextBridge + IPC) or
 * the headless WebSocket. Types and one name only, no schemas: the preload bundles this file and must
 * stay a few lines of CommonJS.
 */
import type { AppChange, AppSnapshot, StateEvent } from './state';
import type { AppApiMethod } from './contract';

/** The minimal surface a carrier provides; `createAppApi` (client.ts) builds the typed `AppApi` on it. */
export interface AppApiCarrier {
  call(method: AppApiMethod, params: unknown): Promise<unknown>;
  onState(listener: (event: StateEvent) => void): () => void;
}

/** Messages on the headless WebSocket (/api). */
export type HeadlessClientMessage = { id: number; method: AppApiMethod; params: unknown };
export type HeadlessServerMessage =
  | { id: number; result: unknown }
  | { id: number; error: { message: string } }
  | { event: 'change'; change: AppChange }
  | { event: 'snapshot'; snapshot: AppSnapshot };

/** Name of the global the Electron preload exposes. */
export const PRELOAD_GLOBAL = 'difftrayCarrier';
