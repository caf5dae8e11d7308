/**
 * A connection that lives as long as one question to the person (`difftray approve`, `difftray hook`):
 * found through the lock file, introduced with `one_shot`, so if this process is killed (Ctrl-C, Claude
 * Code's hook timeout) DiffTray cancels what it asked at once instead of keeping it for a reconnect.
 */
import type { HelloResponse, RequestPayload } from '../../shared/native-protocol';
import { NativeClient } from './client';
import { findDiffTray, type DiscoveryOptions } from './discovery';

export async function connectOneShot(
  where: DiscoveryOptions,
  hello: RequestPayload<'hello'>,
): Promise<NativeClient> {
  const { lock } = findDiffTray(where);
  const client = await NativeClient.connect(lock);
  try {
    const answer = await client.request<HelloResponse>('hello', { ...hello, one_shot: true });
    client.startHeartbeat(answer.heartbeat_interval_ms);
    return client;
  } catch (error) {
    client.close();
    throw error;
  }
}
