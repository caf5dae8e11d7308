/**
 * A review's title, description and notes go to every snapshot the UI receives: each is held to its
 * limit (limits.ts), whatever an adapter composed from what its client sent.
 */
import { MAX_LABEL_CHARS, MAX_NOTE_CHARS } from '../limits';

const CUT_MARKER = ' … (cut: too long)';

export function boundedTitle(title: string): string {
  return clip(title, MAX_LABEL_CHARS);
}

export function boundedNote(note: string): string {
  return clip(note, MAX_NOTE_CHARS);
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : text.slice(0, maxChars - CUT_MARKER.length) + CUT_MARKER;
}
