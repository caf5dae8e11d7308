/**
 * A turn review's file the person already reviewed during the turn can be compared with two starting
 * points (ReviewFileInfo.otherBase): what they last saw of it, and the file before the turn. The review
 * decides against one of them; the other is shown read-only on request. The words of that choice.
 */
import type { OtherBaseKind } from '../../shared/app-api';

export const SINCE_YOUR_REVIEW = 'Since your review';
export const SINCE_TURN_START = 'Since the turn started';

/** The two buttons, in a fixed order, and which of them is the review's own diff. */
export function compareChoices(kind: OtherBaseKind): Array<{ label: string; other: boolean; title: string }> {
  const yourReview = {
    label: SINCE_YOUR_REVIEW,
    other: kind === 'yourReview',
    title: 'What the agent wrote after you last reviewed this file',
  };
  const turnStart = {
    label: SINCE_TURN_START,
    other: kind === 'turnStart',
    title: 'Everything the agent wrote to this file during its turn',
  };
  return [yourReview, turnStart];
}

/** The read-only diff's words: its caption and accessible names. */
export function otherBaseView(kind: OtherBaseKind): {
  caption: string;
  label: string;
  originalLabel: string;
  modifiedLabel: string;
} {
  const left = kind === 'turnStart' ? 'the file when the turn started' : 'the file as you last reviewed it';
  return {
    caption: `Read only. Left: ${left}. Right: the proposal now. Decide in the other view.`,
    label: kind === 'turnStart' ? 'Changes since the turn started' : 'Changes since your review',
    originalLabel: left.charAt(0).toUpperCase() + left.slice(1),
    modifiedLabel: 'The proposal now',
  };
}
