import { PRELOAD_GLOBAL } from '../../shared/app-api/carrier';
import type { AppApiCarrier } from '../../shared/app-api';
import type { RendererCarrier } from './types';

/** The carrier the Electron preload exposed through contextBridge, if we run inside Electron. */
export function findPreloadCarrier(global: object): AppApiCarrier | undefined {
  const candidate = (global as Record<string, unknown>)[PRELOAD_GLOBAL];
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const { call, onState } = candidate as Partial<AppApiCarrier>;
  return typeof call === 'function' && typeof onState === 'function'
    ? (candidate as AppApiCarrier)
    : undefined;
}

/** IPC to our own main process never drops, so the preload carrier is always connected. */
export function wrapPreloadCarrier(carrier: AppApiCarrier): RendererCarrier {
  return {
    kind: 'preload',
    snapshotOnConnect: false,
    call: (method, params) => carrier.call(method, params),
    onState: (listener) => carrier.onState(listener),
    onStatus: (listener) => {
      listener('connected');
      return () => {};
    },
  };
}
