/**
 * Auto-apply as a core rule: a review from a client named in settings.json's `autoApply` is accepted
 * whole as it arrives, read at each arrival. Core with a real settings store on a temp file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentControlReason } from '../../shared/agent-control-files';
import type { ClientInfo, ClientProtocol } from '../../shared/app-api';
import { CONFLICT_END, CONFLICT_SEPARATOR, CONFLICT_START } from '../../shared/merge3';
import { AppCore } from '../../src-main/core/app-core';
import { AUTO_APPLIED_NOTE } from '../../src-main/core/review/auto-apply';
import type { ReviewRequest } from '../../src-main/core/review/review-queue';
import { SettingsStore } from '../../src-main/core/settings/settings-store';
import { makeTempDir } from '../support/temp';

const BASE = 'a\nb\nc\n';
const PROPOSED = 'A\nb\nc\n';

let temp: ReturnType<typeof makeTempDir>;
let store: SettingsStore;
let core: AppCore;

beforeEach(() => {
  temp = makeTempDir('auto-apply');
  const file = path.join(temp.dir, 'settings.json');
  mkdirSync(temp.dir, { recursive: true });
  writeFileSync(file, JSON.stringify({ autoApply: ['Gemini CLI', ' changes on disk '] }));
  store = new SettingsStore(file, { watch: false });
  core = new AppCore(['/ws'], { settings: store });
});
afterEach(async () => {
  await core.close();
  store.close();
  temp.cleanup();
});

function client(name: string, protocol: ClientProtocol): ClientInfo {
  return core.clients.connect(name, protocol, () => {});
}

function request(from: ClientInfo, overrides: Partial<ReviewRequest> = {}): ReviewRequest {
  return {
    client: from,
    title: 'a.txt',
    description: 'from the agent',
    files: [{ path: '/ws/a.txt', base: { exists: true, kind: 'text', text: BASE }, proposedText: PROPOSED }],
    ...overrides,
  };
}

describe('auto-apply', () => {
  it('a client named in autoApply: accepted whole as it arrives, and History says it was applied without review', async () => {
    const { id, outcome } = core.queue.add(request(client('gemini cli', 'gemini-ide')));
    expect(await outcome).toMatchObject({
      kind: 'accepted',
      files: [{ finalText: PROPOSED, changed: true }],
    });
    expect(core.queue.pendingCount()).toBe(0);
    expect(core.queue.summary(id)).toMatchObject({
      state: 'accepted',
      description: `from the agent\n\n${AUTO_APPLIED_NOTE}`,
    });
  });

  it('another client waits for the person', () => {
    const { id } = core.queue.add(request(client('Claude Code', 'claude-ide')));
    expect(core.queue.summary(id).state).toBe('pending');
  });

  it('read at each arrival: a change in the settings applies to the next review', () => {
    const claude = client('Claude Code', 'claude-ide');
    store.update({ autoApply: ['Claude Code'] });
    expect(core.queue.summary(core.queue.add(request(claude)).id).state).toBe('accepted');
    store.update({ autoApply: [] });
    expect(core.queue.summary(core.queue.add(request(claude, { tabName: 'b' })).id).state).toBe('pending');
  });

  it('never for an approval card, nor for DiffTray’s own reviews (changes on disk), nor where the protocol says no', () => {
    const gemini = client('Gemini CLI', 'gemini-ide');
    const approval = core.queue.add(
      request(gemini, { files: [], approval: { kind: 'command', command: 'make deploy' } }),
    );
    const watch = core.queue.add(request(client('Changes on disk', 'watch')));
    const refused = core.queue.add(request(gemini, { autoApply: false, tabName: 'x' }));
    for (const { id } of [approval, watch, refused]) expect(core.queue.summary(id).state).toBe('pending');
  });

  it('a proposal that cannot be accepted as it is (conflict markers) waits for the person, with why', () => {
    const conflicted = [CONFLICT_START, 'x', CONFLICT_SEPARATOR, 'y', CONFLICT_END, ''].join('\n');
    const { id } = core.queue.add(
      request(client('Gemini CLI', 'gemini-ide'), {
        files: [
          { path: '/ws/a.txt', base: { exists: true, kind: 'text', text: BASE }, proposedText: conflicted },
        ],
      }),
    );
    expect(core.queue.summary(id).state).toBe('pending');
    expect(core.queue.item(id)?.notes).toEqual([
      expect.stringMatching(/^Auto-apply left this for review: .*1 unresolved conflict/),
    ]);
  });

  it('never for an edit to an agent-control file (.claude/, hooks, AGENTS.md, .git/config…): it waits, with why', () => {
    const gemini = client('Gemini CLI', 'gemini-ide');
    const controls = [
      '/ws/.claude/settings.json',
      '/ws/AGENTS.md',
      '/ws/.git/hooks/pre-commit',
      '/ws/.mcp.json',
    ];
    for (const [i, controlPath] of controls.entries()) {
      const files = [
        {
          path: '/ws/a.txt',
          base: { exists: true as const, kind: 'text' as const, text: BASE },
          proposedText: PROPOSED,
        },
        {
          path: controlPath,
          base: { exists: true as const, kind: 'text' as const, text: BASE },
          proposedText: PROPOSED,
        },
      ];
      const { id } = core.queue.add(request(gemini, { files, tabName: `t${i}` }));
      expect(core.queue.summary(id)).toMatchObject({ state: 'pending', description: 'from the agent' });
      expect(core.queue.item(id)?.notes).toEqual([
        `Auto-apply left this for review: ${controlPath} is an agent-control file, ${agentControlReason(controlPath)!}.`,
      ]);
    }
  });

  it('the settings and the file’s state are in the snapshot; a core without a store sends none', () => {
    expect(core.snapshot()).toMatchObject({
      settings: { autoApply: ['Gemini CLI', ' changes on disk '] },
      settingsFile: { path: store.file },
    });
    const bare = new AppCore(['/ws']);
    expect(bare.snapshot()).not.toHaveProperty('settings');
    expect(bare.snapshot()).not.toHaveProperty('settingsFile');
  });
});
