/** A bare native client speaking as an agent's turn hooks, for the turn review's integration tests. */
import { expect } from 'vitest';
import { NATIVE_HEADER, RawNative } from './raw-native';
import type { TestRuntime } from './test-runtime';

/** A hook's connection to `t`'s native endpoint: in agent session `session`, in the workspace. */
export async function openTurnHook(
  t: TestRuntime,
  session = 'session-1',
  integration = 'claude-code-hooks',
): Promise<RawNative> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  const answer = await client.request('hello', {
    client_name: 'Claude Code',
    integration,
    agent_session_id: session,
    workspace: t.workspace,
    one_shot: true,
  });
  expect(answer.type).toBe('response');
  return client;
}

/** Sends `command` and answers its response's payload; an error response fails the test. */
export async function ask(client: RawNative, command: string, payload: Record<string, unknown>) {
  const answer = await client.request(command, payload);
  expect(answer.type, JSON.stringify(answer.payload)).toBe('response');
  return answer.payload;
}
