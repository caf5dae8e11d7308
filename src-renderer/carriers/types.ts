import type { AppApiCarrier } from '../../shared/app-api';

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/**
 * What the renderer needs from a carrier beyond the shared contract: whether main is reachable,
 * so the UI can say so and fetch a fresh snapshot after every (re)connect.
 */
export interface RendererCarrier extends AppApiCarrier {
  readonly kind: 'preload' | 'websocket';
  /**
   * Main sends the whole state first on every (re)connection, before any change (the headless
   * WebSocket). Otherwise the window asks for it (the preload: main's stream may have begun before
   * the window listened).
   */
  readonly snapshotOnConnect: boolean;
  /** Called at once with the current status, then on every change; returns an unsubscribe function. */
  onStatus(listener: (status: ConnectionStatus, detail?: string) => void): () => void;
}
