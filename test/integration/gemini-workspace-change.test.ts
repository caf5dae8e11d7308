/**
 * Gemini CLI's own IdeClient (@google/gemini-cli-core), started in a folder DiffTray does not serve,
 * finds DiffTray's discovery file but refuses it (its folder is not in `workspacePath`); once the person
 * adds the folder in the app, the same client connects and its proposal is reviewed.
 *
 * IdeClient is a per-process singleton (vitest gives each test file its own process): one sequence.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IDEConnectionStatus, IdeClient, type DiffUpdateResult } from '@google/gemini-cli-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUMBERS } from '../support/fixtures';
import { enterGeminiEnvironment } from '../support/gemini-environment';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

let t: TestRuntime;
let ide: IdeClient;
let project: string;
let leaveGeminiEnvironment: () => void = () => {};

beforeAll(async () => {
  t = await startTestRuntime({ mcpStreamGraceMs: 300 });
  project = path.join(path.dirname(t.workspace), 'other-project');
  mkdirSync(project);
  leaveGeminiEnvironment = enterGeminiEnvironment({ tmpDir: t.tmpDir, workspace: project });
  ide = await IdeClient.getInstance();
});

afterAll(async () => {
  await ide?.disconnect();
  leaveGeminiEnvironment();
  await t?.close();
});

describe('Gemini CLI in a folder added while DiffTray runs', () => {
  it('is refused while the folder is not a workspace folder', async () => {
    await ide.connect({ logToConsole: false });
    const status = ide.getConnectionStatus();
    expect(status.status).toBe(IDEConnectionStatus.Disconnected);
    expect(status.details).toMatch(/workspace|directory|folder/i);
  });

  it('connects once the folder is added in the app, and its proposal is reviewed', async () => {
    await t.runtime.handler('addWorkspaceFolder', { folder: project });
    await ide.connect({ logToConsole: false });
    expect(ide.getConnectionStatus().status).toBe(IDEConnectionStatus.Connected);

    const file = path.join(project, 'numbers.txt');
    writeFileSync(file, NUMBERS.base);
    const result = ide.openDiff(file, NUMBERS.proposed);
    const review = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    expect(review.files[0]?.path).toBe(file);
    await t.runtime.handler('reject', { reviewId: review.id, reason: 'not now' });
    expect(await result).toEqual<DiffUpdateResult>({ status: 'rejected', content: undefined });
  });
});
