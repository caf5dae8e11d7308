import { describe, expect, it } from 'vitest';
import { compareChoices, otherBaseView } from '../../../src-renderer/review/other-base';
import { useReviewUi } from '../../../src-renderer/review/review-ui';

describe('a turn review’s two starting points', () => {
  it('the review’s own diff is "since your review" when its base is what the person last saw', () => {
    expect(compareChoices('turnStart').map(({ label, other }) => [label, other])).toEqual([
      ['Since your review', false],
      ['Since the turn started', true],
    ]);
    expect(otherBaseView('turnStart').caption).toContain('Left: the file when the turn started.');
  });

  it('and "since the turn started" when its base is the file before the turn', () => {
    expect(compareChoices('yourReview').map(({ label, other }) => [label, other])).toEqual([
      ['Since your review', true],
      ['Since the turn started', false],
    ]);
    expect(otherBaseView('yourReview').originalLabel).toBe('The file as you last reviewed it');
  });

  it('another review on screen starts on its own diff', () => {
    useReviewUi.getState().setShowOtherBase(true);
    useReviewUi.getState().resetForReview();
    expect(useReviewUi.getState().showOtherBase).toBe(false);
  });
});
