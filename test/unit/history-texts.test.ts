import { describe, expect, it } from 'vitest';
import { filesTextBytes } from '../../src-main/core/review/history-texts';
import { createFileState, type ProposedFile } from '../../src-main/core/review/review-file';

const text = (value: string) => ({ exists: true, kind: 'text', text: value }) as const;

describe('the texts a review keeps, counted', () => {
  it('a turn review’s other starting point counts, once', () => {
    const plain: ProposedFile = { path: '/w/a.txt', base: text('base\n'), proposedText: 'new\n' };
    const withOther: ProposedFile = { ...plain, otherBase: { kind: 'turnStart', text: 'earlier text\n' } };
    const extra = Buffer.byteLength('earlier text\n');
    expect(filesTextBytes([], [withOther]) - filesTextBytes([], [plain])).toBe(extra);
    const state = createFileState(withOther);
    expect(state.otherBase).toBe(withOther.otherBase);
    // The file and its proposal hold the same string: counted once.
    expect(filesTextBytes([state], [withOther]) - filesTextBytes([createFileState(plain)], [plain])).toBe(
      extra,
    );
  });
});
