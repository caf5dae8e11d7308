/**
 * The status line (the one live region): what is said, and how the key-pause notice (key-pause.ts)
 * rides along with whatever else is said while keys are paused. Pure state changes; store.ts applies
 * them.
 */
import type { AppSnapshot, ReviewItem } from '../../shared/app-api';
import { diskChangeAnnouncement, newlyChangedOnDisk } from '../review/file-status';
import { isPaused, type KeyPause } from '../keys/key-pause';
import { displayPath, endedBannerText, endedByAgent, findReview } from '../review/review-model';

/** One thing said. A quiet one is shown but not read out again (it was read when first said). */
export interface Announcement {
  id: number;
  text: string;
  quiet?: boolean;
}

export interface StatusLine {
  announcement: Announcement | null;
  /** Set when the review on screen changed by itself: decision keys wait a moment (key-pause.ts). */
  keyPause: KeyPause | null;
  /** What the status line said before the key-pause notice replaced it; shown again when the pause ends. */
  beforePause: string | null;
}

/** Says `text`. While keys are paused for a new review, the notice is kept alongside it. */
export function announced(line: StatusLine, text: string, now: number): Pick<StatusLine, 'announcement'> {
  const pause = line.keyPause;
  const full = pause && text !== pause.text && isPaused(pause, now) ? `${text}. ${pause.text}` : text;
  return { announcement: { id: (line.announcement?.id ?? 0) + 1, text: full } };
}

/** The status line without the notice of `pause`: null when nothing else was said. */
function withoutPauseNotice(text: string, pause: KeyPause | null, beforePause: string | null): string | null {
  if (!pause) return text;
  if (text === pause.text) return beforePause;
  const suffix = `. ${pause.text}`;
  return text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
}

/** A new pause began: its notice replaces the status line, which is remembered for when it ends. */
export function pauseNoticeStarted(line: StatusLine, pause: KeyPause, now: number): StatusLine {
  const { announcement, keyPause, beforePause } = line;
  const before = announcement ? withoutPauseNotice(announcement.text, keyPause, beforePause) : null;
  const paused: StatusLine = { announcement, keyPause: pause, beforePause: before };
  return { ...paused, ...announced(paused, pause.text, now) };
}

/**
 * The pause ended (or the person chose a review themselves): what was said before the notice (or
 * alongside it) is shown again, but not read out a second time; nothing, if nothing else was said.
 */
export function pauseNoticeDropped(line: StatusLine): Partial<StatusLine> {
  const { keyPause, announcement, beforePause } = line;
  if (!keyPause) return {};
  const text = announcement ? withoutPauseNotice(announcement.text, keyPause, beforePause) : null;
  if (!announcement || text === announcement.text) return { keyPause: null, beforePause: null };
  return {
    keyPause: null,
    beforePause: null,
    announcement: text === null ? null : { id: announcement.id + 1, text, quiet: true },
  };
}

/** What to say when the agent ended the review the person was working on, else null. */
export function endedByAgentNotice(
  before: ReviewItem | undefined,
  selected: ReviewItem | undefined,
): string | null {
  if (!selected || before?.state !== 'pending' || !endedByAgent(selected)) return null;
  return endedBannerText(selected);
}

/** Files of the pending review on screen that changed on disk since `previous`, said once as it happens. */
export function diskChangeNotice(
  previous: AppSnapshot | null,
  snapshot: AppSnapshot,
  selected: ReviewItem | undefined,
): string | null {
  if (selected?.state !== 'pending') return null;
  const changed = newlyChangedOnDisk(findReview(previous, selected.id), selected);
  const said = changed.map((index) => {
    const file = selected.files[index]!;
    return diskChangeAnnouncement(displayPath(file.path, snapshot.workspaceFolders), file);
  });
  return said.length > 0 ? said.join('. ') : null;
}
