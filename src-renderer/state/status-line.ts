/**
 * The status line (the one live region): what is said, how the key-pause notice (key-pause.ts) rides
 * along with whatever else is said while keys are paused, and when a message goes. Pure state changes;
 * store.ts applies them.
 *
 * A message goes once it no longer applies:
 * - when the person opens a review other than the one on screen when it was said ("Review submitted"
 *   goes as they open another review; a message said with no review on screen goes as they open one);
 * - STATUS_STALE_MS after it was said: the line tells what just happened, it is not a log. A message
 *   the pause notice hid and then brought back keeps the time of the notice.
 * A review that comes up by itself does not clear it: the key-pause notice rides along instead.
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

/** How long a message stays on the status line. */
export const STATUS_STALE_MS = 10_000;

/** When the message on the status line was said, and which review was on screen then. */
export interface Said {
  at: number;
  reviewId: string | null;
}

export interface StatusLine {
  announcement: Announcement | null;
  /** Of `announcement`: null when nothing is said. */
  said: Said | null;
  /** Set when the review on screen changed by itself: decision keys wait a moment (key-pause.ts). */
  keyPause: KeyPause | null;
  /** What the status line said before the key-pause notice replaced it; shown again when the pause ends. */
  beforePause: string | null;
}

/**
 * Says `text`, with `reviewId` on screen. While keys are paused for a new review, the notice is kept
 * alongside it.
 */
export function announced(
  line: StatusLine,
  text: string,
  now: number,
  reviewId: string | null,
): Pick<StatusLine, 'announcement' | 'said'> {
  const pause = line.keyPause;
  const full = pause && text !== pause.text && isPaused(pause, now) ? `${text}. ${pause.text}` : text;
  return { announcement: { id: (line.announcement?.id ?? 0) + 1, text: full }, said: { at: now, reviewId } };
}

const cleared: Pick<StatusLine, 'announcement' | 'said' | 'keyPause' | 'beforePause'> = {
  announcement: null,
  said: null,
  keyPause: null,
  beforePause: null,
};

/**
 * The person opened `reviewId` themselves: no pause, and what was said about another review (or with
 * none on screen) goes. Opening the review on screen again changes nothing said.
 */
export function reviewOpened(line: StatusLine, reviewId: string): Partial<StatusLine> {
  if (line.announcement && line.said?.reviewId !== reviewId) return cleared;
  return pauseNoticeDropped(line);
}

/** At `now`: the message goes once STATUS_STALE_MS passed since it was said (never during a pause). */
export function staleCleared(line: StatusLine, now: number): Partial<StatusLine> {
  if (!line.announcement || !line.said || isPaused(line.keyPause, now)) return {};
  return now - line.said.at >= STATUS_STALE_MS ? cleared : {};
}

/** How long until the message on the line goes stale, or null when nothing is said. */
export function staleIn(line: Pick<StatusLine, 'said'>, now: number): number | null {
  return line.said ? Math.max(0, line.said.at + STATUS_STALE_MS - now) : null;
}

/** The status line without the notice of `pause`: null when nothing else was said. */
function withoutPauseNotice(text: string, pause: KeyPause | null, beforePause: string | null): string | null {
  if (!pause) return text;
  if (text === pause.text) return beforePause;
  const suffix = `. ${pause.text}`;
  return text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
}

/** A new pause began: its notice replaces the status line, which is remembered for when it ends. */
export function pauseNoticeStarted(
  line: StatusLine,
  pause: KeyPause,
  now: number,
  reviewId: string | null,
): StatusLine {
  const { announcement, said, keyPause, beforePause } = line;
  const before = announcement ? withoutPauseNotice(announcement.text, keyPause, beforePause) : null;
  const paused: StatusLine = { announcement, said, keyPause: pause, beforePause: before };
  return { ...paused, ...announced(paused, pause.text, now, reviewId) };
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
  if (text === null) return cleared;
  return { keyPause: null, beforePause: null, announcement: { id: announcement.id + 1, text, quiet: true } };
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
