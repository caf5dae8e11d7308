/**
 * Auto-apply for Copilot CLI, spoken over its Unix socket as the real CLI does: open_diff answered SAVED
 * at once, nothing pending; "Copilot CLI" in the settings covers each of its sessions named after it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTO_APPLIED_NOTE } from '../../src-main/core/review/auto-apply';
import { callTool, closeCopilotStreams, connectCopilot, readCopilotLock } from '../support/copilot-client';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';

const BASE = 'one\ntwo\nthree\n';
const PROPOSED = 'ONE\ntwo\nthree\n';

let t: TestRuntime;
let file: string;

beforeEach(async () => {
  t = await startTestRuntime({ mcpStreamGraceMs: 2000 });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
});

afterEach(async () => {
  closeCopilotStreams();
  await t.close();
});

describe('auto-apply for Copilot CLI', () => {
  it('open_diff from a named session is answered SAVED at once; the CLI writes, nothing waits', async () => {
    await t.runtime.handler('updateSettings', { autoApply: ['Copilot CLI'] });
    const session = await connectCopilot(readCopilotLock(path.join(t.home, '.copilot', 'ide')));
    await callTool(session, 'update_session_name', { name: 'Fix the parser' });
    const answer = await callTool(session, 'open_diff', {
      original_file_path: file,
      new_file_contents: PROPOSED,
      tab_name: 'Edit notes',
    });
    expect(JSON.parse(answer.text)).toMatchObject({ success: true, result: 'SAVED', tab_name: 'Edit notes' });
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
    expect(t.runtime.core.snapshot().reviews).toMatchObject([
      {
        state: 'accepted',
        client: { name: 'Copilot CLI · Fix the parser' },
        description: `Edit notes\n\n${AUTO_APPLIED_NOTE}`,
      },
    ]);
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });
});
