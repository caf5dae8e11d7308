/**
 * Every size limit DiffTray enforces on what clients send, in one place, so each protocol states the
 * same numbers and memory stays bounded by bytes (README, Security).
 */

/** The largest file any protocol may propose, and the largest file read as text for review. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Longest path a client may name (PATH_MAX on Linux). */
export const MAX_PATH_CHARS = 4096;

/** Review titles, tab names, client names and versions, status lines. */
export const MAX_LABEL_CHARS = 4096;

/** Descriptions, rationales, notes and reasons: free text written by an agent or a person. */
export const MAX_NOTE_CHARS = 64 * 1024;

/** Reviews one client may have waiting at once; one more is refused with a clear error. */
export const MAX_PENDING_REVIEWS_PER_CLIENT = 100;

/** Ended reviews kept for History, by count... */
export const HISTORY_MAX_REVIEWS = 200;

/** ...and by the bytes of their texts: past this, the oldest ended reviews keep only their summaries. */
export const HISTORY_MAX_TEXT_BYTES = 64 * 1024 * 1024;

/** Whether `text` fits in `maxBytes` once encoded as UTF-8 (without encoding it when it clearly fits). */
export function fitsInBytes(text: string, maxBytes: number): boolean {
  // A UTF-16 code unit is at most 3 UTF-8 bytes.
  if (text.length * 3 <= maxBytes) return true;
  if (text.length > maxBytes) return false;
  return Buffer.byteLength(text, 'utf8') <= maxBytes;
}
