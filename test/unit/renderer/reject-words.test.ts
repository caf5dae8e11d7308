/**
 * The Reject dialog's words for each kind of review (reject-words.ts): what happens on disk follows the
 * files (already written or not), whether the agent hears the reason follows the client's protocol.
 */
import { describe, expect, it } from 'vitest';
import type { ClientProtocol, ReviewFileInfo, ReviewItem } from '../../../shared/app-api';
import { rejectDiskText, rejectNoteText } from '../../../src-renderer/review/reject-words';

function file(path: string, written: boolean): ReviewFileInfo {
  return {
    path,
    isNewFile: false,
    binary: false,
    fileDecision: 'pending',
    contentRevision: 1,
    hunkCount: 1,
    disk: { state: 'unchanged' },
    conflicts: 0,
    ...(written && { written: true }),
  };
}

function review(
  protocol: ClientProtocol,
  name: string,
  written: boolean[],
): Pick<ReviewItem, 'files' | 'client'> {
  return {
    client: { id: 'c', name, protocol, connectedAt: 0, connected: true },
    files: written.map((w, i) => file(`/ws/f${i}.ts`, w)),
  };
}

const REVERTED = /reverts .* in the working tree/;

describe('the Reject dialog says what will happen', () => {
  it('`difftray review` of a working tree: the change is reverted in the working tree; the CLI is told why', () => {
    const cli = review('native', 'difftray review', [true, true]);
    expect(rejectDiskText(cli)).toBe(
      'The change is already on disk: rejecting reverts all 2 files in the working tree.',
    );
    expect(rejectNoteText(cli)).toBe('difftray review is told why: the reason goes back with the rejection.');
  });

  it('watch mode and a turn review (after the fact): Reject reverts; watch mode hears no reason', () => {
    const watch = review('watch', 'Changes on disk', [true]);
    expect(rejectDiskText(watch)).toBe(
      'The change is already on disk: rejecting reverts it in the working tree.',
    );
    expect(rejectNoteText(watch)).toBe(
      "Watch mode can't carry a note to the agent. The reason is kept in History.",
    );
    expect(rejectDiskText(review('native', 'Claude Code turn', [true]))).toMatch(REVERTED);
  });

  for (const [protocol, name] of [
    ['claude-hooks', 'Claude Code'],
    ['claude-ide', 'Claude Code'],
    ['codex-hooks', 'Codex CLI'],
    ['native', 'release-script'],
    ['gemini-ide', 'Gemini CLI'],
  ] as const) {
    it(`a proposal not written yet (${protocol}): the agent writes nothing, nothing is reverted`, () => {
      const text = rejectDiskText(review(protocol, name, [false, false]));
      expect(text).toBe('The agent writes nothing: the files stay as they are.');
      expect(text).not.toMatch(REVERTED);
    });
  }

  it("hooks carry the reason to the agent; Claude Code's IDE protocol cannot, and says so", () => {
    expect(rejectNoteText(review('claude-hooks', 'Claude Code', [false]))).toBe(
      'Claude Code is told why: the reason goes back with the rejection.',
    );
    expect(rejectNoteText(review('claude-ide', 'Claude Code', [false]))).toBe(
      "Claude Code's IDE protocol can't carry a note to the agent. The reason is kept in History.",
    );
  });

  it('a native client that writes its own files (writer "client"): DiffTray reverts nothing, and says so', () => {
    const own = (written: boolean[]): Pick<ReviewItem, 'files' | 'client'> => {
      const base = review('native', 'editor-plugin', written);
      const files = base.files.map((f) => (f.written ? { ...f, revert: 'client' as const } : f));
      return { ...base, files };
    };
    const whole = rejectDiskText(own([true, true]));
    expect(whole).toBe(
      'The agent already wrote this change itself: DiffTray leaves it on disk, and the agent is told it was rejected.',
    );
    expect(whole).not.toMatch(REVERTED);
    expect(rejectDiskText(own([true, false]))).toBe(
      '1 file is already changed on disk by the agent itself: DiffTray leaves it as it is, and the agent is told. The agent writes nothing of the rest.',
    );
  });

  it('some files written, some not: only the written ones are reverted', () => {
    expect(rejectDiskText(review('native', 'agent', [true, false, false]))).toBe(
      '1 file is already changed on disk: rejecting reverts it in the working tree. The agent writes nothing of the rest.',
    );
    expect(rejectDiskText(review('native', 'agent', [true, true, false]))).toBe(
      '2 files are already changed on disk: rejecting reverts them in the working tree. The agent writes nothing of the rest.',
    );
  });
});
