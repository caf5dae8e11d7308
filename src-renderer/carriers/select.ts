import { findPreloadCarrier, wrapPreloadCarrier } from './preload';
import { takeEarlySocket } from './early-socket';
import type { RendererCarrier } from './types';
import { addressWithoutToken, createWebSocketCarrier, headlessApiUrl } from './websocket';

/** Inside Electron the preload carrier is present; in any other browser we talk to the headless server. */
export function selectCarrier(win: Window): RendererCarrier {
  const preload = findPreloadCarrier(win);
  if (preload) return wrapPreloadCarrier(preload);
  const url = headlessApiUrl(win.location);
  const address = addressWithoutToken(win.location);
  if (address !== undefined) win.history.replaceState(win.history.state, '', address);
  // The socket main.tsx opened first (early-socket.ts), when it is still connecting; after it, new ones.
  return createWebSocketCarrier(url, {
    createSocket: (socketUrl) => takeEarlySocket(socketUrl) ?? new WebSocket(socketUrl),
  });
}
