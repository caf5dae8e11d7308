/** What the fuzz runner needs of each endpoint. */
import type { Endpoints } from '../app-process';
import type { Frame } from '../frames';
import type { Prng } from '../prng';

/**
 * The probe was answered at once, with one of the app's stated limits (a rate limit, a cap on sessions
 * or connections) that the fuzz itself used up: the app is responsive, and refuses as documented.
 */
export class LimitRefusal extends Error {}

export interface EndpointDriver {
  /** Called before each batch (e.g. to create reviews the batch can act on). */
  startBatch?(): Promise<void>;
  /** Sends one fuzz frame, reconnecting first when the server closed the last connection. */
  send(frame: Frame): Promise<void>;
  /** A valid request on a fresh connection; rejects when it is not answered in time. */
  probe(timeoutMs: number): Promise<void>;
  /** Closes the batch's connections and sessions; their pending reviews end with them. */
  endBatch(): Promise<void>;
  /** Connections the server closed that the fuzz reopened (oversize frames, bad UTF-8...). */
  readonly reconnects: number;
}

export interface DriverOptions {
  endpoints: Endpoints;
  prng: Prng;
  /** Every message received from the app, as text, for the leak check. */
  onText: (text: string) => void;
}

/** Waits for every promise, ignoring failures: a frame the server refused is not the fuzz's error. */
export async function settleAll(promises: Iterable<Promise<unknown>>): Promise<void> {
  await Promise.allSettled([...promises]);
}
