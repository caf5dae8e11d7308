/** Submit says why it is disabled when a client that applies proposals whole would get part of one. */
import { describe, expect, it } from 'vitest';
import { partialDecisionBlocker } from '../../../src-renderer/review/whole-proposal';

const copilot = { name: 'Copilot CLI', protocol: 'copilot-cli' } as const;
const counts = (accepted: number, rejected: number, pending = 0, mixed = 0) => ({
  accepted,
  rejected,
  pending,
  mixed,
});

describe('partialDecisionBlocker', () => {
  it('blocks a partial decision for Copilot CLI, and says to accept all or reject', () => {
    const why = 'Copilot CLI applies its proposal whole: accept all, or reject it';
    expect(partialDecisionBlocker(copilot, counts(1, 1))).toBe(why);
    // Undecided hunks go in as accepted: with a rejected one, that is part of the proposal too.
    expect(partialDecisionBlocker(copilot, counts(0, 1, 2))).toBe(why);
    expect(partialDecisionBlocker(copilot, counts(0, 0, 0, 1))).toBe(why);
  });

  it('lets whole decisions through, and every other client decide hunk by hunk', () => {
    expect(partialDecisionBlocker(copilot, counts(2, 0, 1))).toBeNull();
    expect(partialDecisionBlocker(copilot, counts(0, 3))).toBeNull();
    expect(partialDecisionBlocker({ name: 'Claude Code', protocol: 'claude-ide' }, counts(1, 1))).toBeNull();
  });
});
