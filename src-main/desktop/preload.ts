/**
 * The preload exposes one carrier to the sandboxed renderer: a call function and the state stream
 * (changes, and a whole snapshot when one is due). No Electron or Node object crosses the bridge.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
// The carrier's file alone: the rest of the contract holds schemas, which have no business here.
import { PRELOAD_GLOBAL, type AppApiCarrier } from '../../shared/app-api/carrier';
import type { AppApiMethod, StateEvent } from '../../shared/app-api';
import { IPC_CALL_CHANNEL, IPC_STATE_CHANNEL } from './security';

const carrier: AppApiCarrier = {
  call: (method: AppApiMethod, params: unknown) => ipcRenderer.invoke(IPC_CALL_CHANNEL, method, params),
  onState: (listener) => {
    const forward = (_event: IpcRendererEvent, state: StateEvent) => listener(state);
    ipcRenderer.on(IPC_STATE_CHANNEL, forward);
    return () => ipcRenderer.removeListener(IPC_STATE_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, carrier);
