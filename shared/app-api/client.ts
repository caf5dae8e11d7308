/**
 * The window's side of the app API: one typed `call` over whichever carrier connects it to main, whose
 * parameters and answer are the contract's (contract.ts) for the method named.
 */
import type { AppApiCarrier } from './carrier';
import { appApiSpecs, type AppApiMethod, type AppApiParams, type AppApiResult } from './contract';
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
 * A typed `call` over an untyped sender (a carrier, or main's handler in tests). The answer passes the
 * method's result schema, which only gives it its type (call-spec.ts `answers`).
 */
export function typedCall(send: (method: AppApiMethod, params: unknown) => Promise<unknown>): AppApiCall {
  return (method, params) => send(method, params).then((answer) => appApiSpecs[method].result.parse(answer));
}

export function createAppApi(carrier: AppApiCarrier): AppApi {
  return {
    call: typedCall((method, params) => carrier.call(method, params)),
    onState: (listener) => carrier.onState(listener),
  };
}
