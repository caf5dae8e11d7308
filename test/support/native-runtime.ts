/**
 * A real runtime for each test of a file, and the native clients a test opens on it closed after it:
 * the setup the native protocol's integration tests share.
 */
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { RawNative } from './raw-native';
import { startTestRuntime, type TestRuntime, type TestRuntimeOptions } from './test-runtime';

export interface NativeRuntime {
  /** The runtime of the test running now. */
  readonly t: TestRuntime;
  /** Closes `client` after the test; returns it. */
  keep<C extends RawNative>(client: C): C;
  /** Calls the app API's handler, as the window would. */
  api(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** A path in the runtime's workspace. */
  ws(name: string): string;
}

export function useNativeRuntime(options: TestRuntimeOptions = {}): NativeRuntime {
  let runtime: TestRuntime | undefined;
  let clients: RawNative[] = [];
  beforeEach(async () => {
    runtime = await startTestRuntime(options);
    clients = [];
  });
  afterEach(async () => {
    for (const client of clients) client.close();
    await runtime?.close();
    runtime = undefined;
  });
  const current = (): TestRuntime => {
    if (!runtime) throw new Error('the runtime exists only while a test runs');
    return runtime;
  };
  return {
    get t() {
      return current();
    },
    keep(client) {
      clients.push(client);
      return client;
    },
    api: (method, params) => current().runtime.handler(method, params),
    ws: (name) => path.join(current().workspace, name),
  };
}
