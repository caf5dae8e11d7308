/**
 * Settings as the app sees them, through the app API handler the window calls and the real runtime:
 * what a broken settings.json does, a hand edit while running, a paused client across a restart, and
 * auto-apply answering a Claude Code client (the official MCP SDK client over the real endpoint).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { typedCall, type AppChange, type AppSettingsPatch } from '../../shared/app-api';
import { DEFAULT_APP_SETTINGS } from '../../shared/app-settings';
import { AUTO_APPLIED_NOTE } from '../../src-main/core/review/auto-apply';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { connectClaudeClient, texts, type ClaudeTestClient } from '../support/claude-client';
import { BASE, PROPOSED } from '../support/fixtures';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

let t: TestRuntime | undefined;
const claudes: ClaudeTestClient[] = [];
afterEach(async () => {
  for (const claude of claudes.splice(0)) await claude.close();
  await t?.close();
  t = undefined;
});

const settingsFile = (rt: TestRuntime) => path.join(rt.home, '.difftray', 'settings.json');

/** The runtime, with settings.json holding `text` first when given. */
async function start(text?: string): Promise<TestRuntime> {
  t = await startTestRuntime({
    beforeStart: (home) => {
      if (text === undefined) return;
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(path.join(home, '.difftray', 'settings.json'), text);
    },
  });
  return t;
}

const updateSettings = (rt: TestRuntime, patch: AppSettingsPatch) =>
  typedCall((method, params) => rt.runtime.handler(method, params))('updateSettings', patch);

async function claudeOf(rt: TestRuntime): Promise<ClaudeTestClient> {
  const { bridge } = rt.runtime;
  const claude = await connectClaudeClient(bridge.port, bridge.tokenFor('claude-ide'));
  claudes.push(claude);
  await until(
    () => rt.runtime.core.clients.list().find((client) => client.protocol === 'claude-ide'),
    'Claude Code listed',
  );
  return claude;
}

describe('settings through the app API', () => {
  it('a settings file that is not JSON: the window is told why, a change is refused, and the file is left byte for byte', async () => {
    const text = '{ "theme": "dark", // my note\n}';
    const rt = await start(text);
    const snapshot = rt.runtime.core.snapshot();
    expect(snapshot.settings).toEqual(DEFAULT_APP_SETTINGS);
    expect(snapshot.settingsFile).toEqual({
      path: settingsFile(rt),
      problem: expect.stringMatching(/settings\.json is not valid JSON/),
    });
    await expect(updateSettings(rt, { theme: 'light' })).rejects.toThrow(
      /Settings not changed: .*settings\.json is not valid JSON.*nothing written in it is lost/,
    );
    expect(readFileSync(settingsFile(rt), 'utf8')).toBe(text);
  });

  it('the file fixed by hand while running: the window is sent the settings and the problem is gone', async () => {
    const rt = await start('[]');
    const changes: AppChange[] = [];
    const subscription = rt.runtime.core.subscribe((change) => changes.push(change));
    expect(rt.runtime.core.snapshot().settingsFile?.problem).toMatch(/is not a JSON object/);

    writeFileSync(settingsFile(rt), JSON.stringify({ theme: 'dark' }));
    const fixed = await until(() => changes.find((change) => change.settings?.theme === 'dark'), 'the fix');
    expect(fixed.settingsFile).toEqual({ path: settingsFile(rt) });
    subscription.close();
  });

  it('one bad key: the others are used, the window is told which key and why, and changes still apply at once', async () => {
    const rt = await start(JSON.stringify({ theme: 7, launchAtLogin: true, mine: 'kept' }));
    expect(rt.runtime.core.snapshot()).toMatchObject({
      settings: { ...DEFAULT_APP_SETTINGS, launchAtLogin: true },
      settingsFile: { problem: expect.stringMatching(/^"theme" is not used/) },
    });
    const changes: AppChange[] = [];
    const subscription = rt.runtime.core.subscribe((change) => changes.push(change));
    expect(await updateSettings(rt, { keyMap: { undo: ['Mod+U'] } })).toMatchObject({
      launchAtLogin: true,
      keyMap: { undo: ['Mod+U'] },
    });
    await until(() => changes.find((change) => change.settings), 'the change');
    expect(JSON.parse(readFileSync(settingsFile(rt), 'utf8'))).toEqual({
      theme: 7,
      launchAtLogin: true,
      mine: 'kept',
      keyMap: { undo: ['Mod+U'] },
    });
    await expect(updateSettings(rt, { keyMap: { undo: ['Mod+Y'] } })).rejects.toThrow(
      /Mod\+Y is used for both acceptHunk and undo/,
    );
    subscription.close();
  });

  it('a paused client stays paused across a restart', async () => {
    const rt = await start();
    await claudeOf(rt);
    await rt.runtime.handler('setClientPaused', { key: 'claude-ide:Claude Code', paused: true });
    expect(JSON.parse(readFileSync(settingsFile(rt), 'utf8'))).toEqual({
      pausedClients: [{ key: 'claude-ide:Claude Code', name: 'Claude Code', protocol: 'claude-ide' }],
    });

    for (const claude of claudes.splice(0)) await claude.close();
    await rt.restart();
    expect(rt.runtime.core.snapshot().pausedClients).toEqual([
      { key: 'claude-ide:Claude Code', name: 'Claude Code', protocol: 'claude-ide' },
    ]);
    const file = path.join(rt.workspace, 'notes.txt');
    writeFileSync(file, BASE);
    const claude = await claudeOf(rt);
    await claude.openDiff(file, PROPOSED, 'notes.txt (edit)');
    expect(rt.runtime.core.queue.pendingCount()).toBe(0);

    await rt.runtime.handler('setClientPaused', { key: 'claude-ide:Claude Code', paused: false });
    expect(JSON.parse(readFileSync(settingsFile(rt), 'utf8'))).toEqual({ pausedClients: [] });
  });

  it('a hand edit of the paused clients applies while running; a broken file resumes no one', async () => {
    const rt = await start();
    const paused = { key: 'claude-ide:Claude Code', name: 'Claude Code', protocol: 'claude-ide' };
    writeFileSync(settingsFile(rt), JSON.stringify({ pausedClients: [paused] }));
    await until(
      () => (rt.runtime.core.snapshot().pausedClients.length === 1 ? true : undefined),
      'the pause read',
    );
    expect(rt.runtime.core.snapshot().pausedClients).toEqual([paused]);

    writeFileSync(settingsFile(rt), '{ "pausedClients": [ broken');
    await until(() => rt.runtime.core.snapshot().settingsFile?.problem, 'the broken file reported');
    expect(rt.runtime.core.snapshot().pausedClients).toEqual([paused]);

    writeFileSync(settingsFile(rt), JSON.stringify({ pausedClients: [] }));
    await until(
      () => (rt.runtime.core.snapshot().pausedClients.length === 0 ? true : undefined),
      'the resume read',
    );
  });

  it('auto-apply for Claude Code: openDiff answered as saved at once, nothing pending, History says so', async () => {
    const rt = await start();
    const file = path.join(rt.workspace, 'notes.txt');
    writeFileSync(file, BASE);
    const claude = await claudeOf(rt);
    await updateSettings(rt, { autoApply: ['claude code'] });

    expect(texts(await claude.openDiff(file, PROPOSED, 'notes.txt (edit)'))).toEqual([
      'FILE_SAVED',
      PROPOSED,
    ]);
    expect(rt.runtime.core.queue.pendingCount()).toBe(0);
    expect(rt.runtime.core.snapshot().reviews).toMatchObject([
      { state: 'accepted', title: 'notes.txt', description: `notes.txt (edit)\n\n${AUTO_APPLIED_NOTE}` },
    ]);
    // Claude Code writes the file itself for this protocol: DiffTray did not.
    expect(readFileSync(file, 'utf8')).toBe(BASE);

    // Turned off: the next proposal waits for the person.
    await updateSettings(rt, { autoApply: [] });
    const answer = claude.openDiff(file, PROPOSED, 'again');
    const review = await waitForReview(rt.runtime.core, (r) => r.state === 'pending');
    expect(review.description).toBe('again');
    await rt.runtime.handler('reject', { reviewId: review.id });
    expect(texts(await answer)).toEqual(['DIFF_REJECTED', 'again']);
  });

  it('auto-apply for a native client: written by DiffTray at once and answered as accepted', async () => {
    const rt = await start();
    const file = path.join(rt.workspace, 'b.txt');
    writeFileSync(file, 'one\ntwo\n');
    await updateSettings(rt, { autoApply: ['my-agent'] });
    const { native } = rt.runtime;
    const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
    try {
      await client.request('hello', { client_name: 'my-agent', client_version: '1.0' });
      const patch = createTwoFilesPatch('a/b.txt', 'b/b.txt', 'one\ntwo\n', 'one\nTWO\n');
      const proposed = await client.request('propose_change_set', { title: 'shout', patch });
      expect(proposed.type).toBe('response');
      expect(await client.nextPush()).toMatchObject({
        command: 'change_set_result',
        payload: { status: 'accepted', files: [{ path: 'b.txt', status: 'applied' }] },
      });
      expect(readFileSync(file, 'utf8')).toBe('one\nTWO\n');
      expect(rt.runtime.core.queue.pendingCount()).toBe(0);
      expect(rt.runtime.core.snapshot().reviews[0]?.description).toContain(AUTO_APPLIED_NOTE);
    } finally {
      client.close();
    }
  });
});
