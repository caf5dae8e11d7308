/** The app API carried in-process, to a core in the same test: one window's subscription and calls. */
import type { AppApiCarrier, StateEvent } from '../../shared/app-api';
import { createAppApiHandler } from '../../src-main/core/app-api-handler';
import type { AppCore } from '../../src-main/core/app-core';

export function inProcessCarrier(core: AppCore): AppApiCarrier {
  const handler = createAppApiHandler(core);
  const listeners = new Set<(event: StateEvent) => void>();
  const subscription = core.subscribe((change) => {
    for (const listener of listeners) listener({ change });
  });
  return {
    call: (method, params) => handler(method, params, subscription),
    onState: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
