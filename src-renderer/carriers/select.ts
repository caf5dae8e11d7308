import { findPreloadCarrier, wrapPreloadCarrier } from './preload';
import type { RendererCarrier } from './types';
import { createWebSocketCarrier, headlessApiUrl } from './websocket';

/** Inside Electron the preload carrier is present; in any other browser we talk to the headless server. */
export function selectCarrier(win: Window): RendererCarrier {
  const preload = findPreloadCarrier(win);
  if (preload) return wrapPreloadCarrier(preload);
  return createWebSocketCarrier(headlessApiUrl(win.location));
}
