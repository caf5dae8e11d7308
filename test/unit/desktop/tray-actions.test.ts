/** The tray's reads and actions on a real core: counts, Pause all / Resume all, rejections on quit. */
import { describe, expect, it } from 'vitest';
import { AppCore } from '../../../src-main/core/app-core';
import {
  pauseAll,
  rejectPendingOnQuit,
  resumeAll,
  trayStateOf,
} from '../../../src-main/desktop/tray-actions';

function propose(core: AppCore, client: ReturnType<AppCore['clients']['connect']>, name: string) {
  return core.queue.add({
    client,
    title: name,
    files: [{ path: `/ws/${name}`, base: { exists: true, kind: 'text', text: 'a\n' }, proposedText: 'b\n' }],
  });
}

describe('the tray on a real core', () => {
  it('counts pending reviews and pausable clients; Pause all and Resume all change them', () => {
    const core = new AppCore(['/ws']);
    const claude = core.clients.connect('Claude Code', 'claude-ide');
    core.clients.connect('Gemini CLI', 'gemini-ide');
    propose(core, claude, 'a.txt');
    expect(trayStateOf(core, false)).toMatchObject({
      unpausedClients: 2,
      pausedClients: 0,
      openAtLogin: false,
    });
    expect(trayStateOf(core, true).pending.map((review) => review.title)).toEqual(['a.txt']);

    pauseAll(core);
    expect(trayStateOf(core, false)).toMatchObject({ unpausedClients: 0, pausedClients: 2 });
    expect(() => propose(core, claude, 'b.txt')).toThrow(/paused/);

    resumeAll(core);
    expect(trayStateOf(core, false)).toMatchObject({ unpausedClients: 2, pausedClients: 0 });
  });

  it('on quit, rejects every pending review with "DiffTray quit"', async () => {
    const core = new AppCore(['/ws']);
    const client = core.clients.connect('agent', 'native');
    const first = propose(core, client, 'a.txt');
    const second = propose(core, client, 'b.txt');
    expect(rejectPendingOnQuit(core)).toBe(2);
    for (const review of [first, second]) {
      expect(await review.outcome).toMatchObject({ kind: 'rejected', reason: 'DiffTray quit' });
    }
    expect(trayStateOf(core, false).pending).toEqual([]);
    expect(rejectPendingOnQuit(core)).toBe(0);
  });
});
