import { describe, expect, it } from 'vitest';
import { QUIT_REJECT_REASON, quitPrompt } from '../../../src-main/desktop/quit-prompt';

describe('quitPrompt', () => {
  it('asks nothing when no review is pending', () => {
    expect(quitPrompt(0)).toBeNull();
  });

  it('asks with one pending review, Cancel the default', () => {
    expect(quitPrompt(1)).toEqual({
      message: 'Quit DiffTray? 1 review is still pending.',
      detail: 'It is rejected and each agent is told "DiffTray quit".',
      buttons: ['Quit and reject', 'Cancel'],
      quitButton: 0,
      cancelId: 1,
      defaultId: 1,
    });
  });

  it('counts several', () => {
    expect(quitPrompt(3)).toMatchObject({
      message: 'Quit DiffTray? 3 reviews are still pending.',
      detail: 'They are rejected and each agent is told "DiffTray quit".',
    });
    expect(QUIT_REJECT_REASON).toBe('DiffTray quit');
  });
});
