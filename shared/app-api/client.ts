/**
 * The window's side of the app API: one typed `call` over whichever carrier connects it to main, whose
 * parameters and answer are the contract's (contract.ts) for the method named. It imports the contract
 * for its types only: the schemas (and zod) stay out of the window's first script.
 */
import type { AppApiCarrier } from './carrier';
import type { AppApiMethod, AppApiParams, AppApiResult } from './contract';
import type { StateEvent } from './state';

/** Makes one call: the parameters go on the wire as they are; the answer has the method's type. */
export type AppApiCall = <M extends AppApiMethod>(
  method: M,
  params: AppApiParams<M>,
) => Promise<AppApiResult<M>>;

export interface AppApi {
  call: AppApiCall;
  /** Called with every change (and a whole snapshot when one is due); returns an unsubscribe function. */
  onState(listener: (event: StateEvent) => void): () => void;
}

/**
 * A typed `call` over an untyped sender (a carrier, or main's handler in tests). Main builds its answers
 * itself and its result schemas accept any value (call-spec.ts `answers`), so the answer is not checked
 * again here: it is given the method's result type as it is.
 */
export function typedCall(send: (method: AppApiMethod, params: unknown) => Promise<unknown>): AppApiCall {
  return <M extends AppApiMethod>(method: M, params: AppApiParams<M>) =>
    send(method, params) as Promise<AppApiResult<M>>;
}

export function createAppApi(carrier: AppApiCarrier): AppApi {
  return {
    call: typedCall((method, params) => carrier.call(method, params)),
    onState: (listener) => carrier.onState(listener),
  };
}
