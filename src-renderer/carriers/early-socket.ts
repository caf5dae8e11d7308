/**
 * Opens the headless API's WebSocket before the app's script (React, the views, the contract) is
 * evaluated: the connection's handshake and main's snapshot then travel while that code runs, instead
 * of after it. main.tsx imports it first, and it imports next to nothing, so the bundle evaluates it
 * before the app's modules (only the chunk of libraries the lazy views share comes before it). The
 * carrier (websocket.ts, through select.ts) adopts the socket.
 */
import { PRELOAD_GLOBAL } from '../../shared/app-api/carrier';
import { headlessApiUrl } from './websocket';

// WebSocket.CONNECTING, spelled out like websocket.ts's OPEN.
const CONNECTING = 0;

/** Inside Electron the preload carries the API: no socket is opened there. */
const earlyUrl = PRELOAD_GLOBAL in window ? undefined : headlessApiUrl(window.location);
let early: WebSocket | undefined = earlyUrl === undefined ? undefined : new WebSocket(earlyUrl);

/**
 * The socket opened early for `url`, once. Only one still connecting is handed over: until it opens
 * it can have received nothing, so the carrier's handlers, set now, miss no event.
 */
export function takeEarlySocket(url: string): WebSocket | undefined {
  const socket = early;
  early = undefined;
  if (!socket) return undefined;
  if (url === earlyUrl && socket.readyState === CONNECTING) return socket;
  socket.close();
  return undefined;
}
