/**
 * The preload exposes one carrier to the sandboxed renderer: a call function and a snapshot
 * subscription. No Electron or Node object crosses the bridge.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AppApiCarrier, AppApiMethod, AppSnapshot } from '../../shared/app-api';
import { PRELOAD_GLOBAL } from '../../shared/app-api';
import { IPC_CALL_CHANNEL, IPC_SNAPSHOT_CHANNEL } from './security';

const carrier: AppApiCarrier = {
  call: (method: AppApiMethod, params: unknown) => ipcRenderer.invoke(IPC_CALL_CHANNEL, method, params),
  onSnapshot: (listener) => {
    const forward = (_event: IpcRendererEvent, snapshot: AppSnapshot) => listener(snapshot);
    ipcRenderer.on(IPC_SNAPSHOT_CHANNEL, forward);
    return () => ipcRenderer.removeListener(IPC_SNAPSHOT_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, carrier);
