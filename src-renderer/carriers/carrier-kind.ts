/**
 * Which carrier the window talks to main through: the desktop app's preload, or the headless server's
 * WebSocket (a browser). A few things exist only in the desktop app (the folder picker, launch at login).
 */
import { createContext, useContext } from 'react';
import type { RendererCarrier } from './types';

export type CarrierKind = RendererCarrier['kind'];

export const CarrierKindContext = createContext<CarrierKind>('websocket');

export function useIsDesktop(): boolean {
  return useContext(CarrierKindContext) === 'preload';
}
