/**
 * The one contract between the main process and the renderer.
 *
 * The renderer sees main only through `AppApi` (client.ts), whose calls are those of the contract
 * (contract.ts), written down once per concern: state.ts, reviews.ts, connections.ts, folders.ts,
 * undo-writes.ts, settings.ts. Two carriers move them (carrier.ts): the Electron preload and the
 * headless WebSocket; main validates every call's parameters before anything reaches core.
 */
export * from '../client-protocols';
export * from './access';
export * from './approvals';
export * from './carrier';
export * from './client';
export * from './connections';
export * from './contract';
export * from './folders';
export * from './reviews';
export * from './settings';
export * from './state';
export * from './undo-writes';
