/**
 * Auto-apply for Gemini CLI, with the real client (`IdeClient` from @google/gemini-cli-core): a
 * proposal from a client named in the settings' `autoApply` is answered as accepted at once, with
 * nothing left for the person. IdeClient is a per-process singleton: one runtime, one client.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IdeClient, type DiffUpdateResult } from '@google/gemini-cli-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSettings } from '../../shared/app-api';
import { AUTO_APPLIED_NOTE } from '../../src-main/core/review/auto-apply';
import { NUMBERS } from '../support/fixtures';
import { enterGeminiEnvironment } from '../support/gemini-environment';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview, waitForSnapshot } from '../support/wait';

const { base: BASE, proposed: PROPOSED } = NUMBERS;

let t: TestRuntime;
let ide: IdeClient;
let file: string;
let leaveGeminiEnvironment: () => void = () => {};

beforeAll(async () => {
  t = await startTestRuntime({ mcpStreamGraceMs: 300 });
  file = path.join(t.workspace, 'notes.txt');
  writeFileSync(file, BASE);
  leaveGeminiEnvironment = enterGeminiEnvironment(t);
  ide = await IdeClient.getInstance();
  await ide.connect({ logToConsole: false });
  await waitForSnapshot(t.runtime.core, (s) => s.clients.find((client) => client.name === 'Gemini CLI'));
});

afterAll(async () => {
  await ide?.disconnect();
  leaveGeminiEnvironment();
  await t?.close();
});

const updateSettings = (patch: Partial<AppSettings>) => t.runtime.handler('updateSettings', patch);

describe('auto-apply for Gemini CLI', () => {
  it('on: openDiff answered as accepted with the proposal, nothing pending, History says so', async () => {
    await updateSettings({ autoApply: ['Gemini CLI'] });
    expect(await ide.openDiff(file, PROPOSED)).toEqual<DiffUpdateResult>({
      status: 'accepted',
      content: PROPOSED,
    });
    expect(t.runtime.core.queue.pendingCount()).toBe(0);
    expect(t.runtime.core.snapshot().reviews).toMatchObject([
      { state: 'accepted', description: AUTO_APPLIED_NOTE },
    ]);
    // Gemini CLI writes the file itself.
    expect(readFileSync(file, 'utf8')).toBe(BASE);
  });

  it('off again: the next proposal waits for the person', async () => {
    await updateSettings({ autoApply: [] });
    const result = ide.openDiff(file, PROPOSED);
    const review = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
    await t.runtime.handler('reject', { reviewId: review.id });
    expect(await result).toEqual<DiffUpdateResult>({ status: 'rejected', content: undefined });
  });

  it('on, but the proposal edits the agent’s own settings: it waits for the person, with why', async () => {
    await updateSettings({ autoApply: ['Gemini CLI'] });
    const settings = path.join(t.workspace, '.gemini', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, '{}\n');
    const result = ide.openDiff(settings, '{ "tools": { "autoAccept": true } }\n');
    const review = await waitForReview(t.runtime.core, (r) => r.files[0]?.path === settings);
    expect(review.state).toBe('pending');
    expect(t.runtime.core.queue.item(review.id)?.notes).toEqual([
      expect.stringMatching(/^Auto-apply left this for review: .*settings\.json is an agent-control file/),
    ]);
    await t.runtime.handler('reject', { reviewId: review.id });
    expect(await result).toEqual<DiffUpdateResult>({ status: 'rejected', content: undefined });
    expect(readFileSync(settings, 'utf8')).toBe('{}\n');
  });
});
