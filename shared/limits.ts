/**
 * Every size limit DiffTray enforces on what clients send, in one place, so each protocol states the
 * same numbers and memory stays bounded by bytes (README, Security). Here in shared/ because the app
 * API's schemas (shared/app-api/) state them too; src-main/core/limits.ts re-exports them.
 */

/** The largest file any protocol may propose, and the largest file read as text for review. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Largest frame (or HTTP body) an authenticated client may send: two files of the 10 MB limit (a base and
 * a proposal), JSON-escaped, with room for the envelope. Anything larger closes the socket (1009).
 * Here because the native protocol's schemas (shared/native-protocol.ts) state it too.
 */
export const MAX_FRAME_BYTES = 6 * MAX_FILE_BYTES + 1024 * 1024;

/** Longest path a client may name (PATH_MAX on Linux). */
export const MAX_PATH_CHARS = 4096;

/** Review titles, tab names, client names and versions, status lines. */
export const MAX_LABEL_CHARS = 4096;

/** Descriptions, rationales, notes and reasons: free text written by an agent or a person. */
export const MAX_NOTE_CHARS = 64 * 1024;

/** Lines a person sends to an agent as context ("Send to agent"): a few screens, not a file. */
export const MAX_SELECTION_CHARS = 64 * 1024;

/** Reviews one client may have waiting at once; one more is refused with a clear error. */
export const MAX_PENDING_REVIEWS_PER_CLIENT = 100;

/** Text the pending reviews of one client may hold, and of all clients together; one more is refused. */
export const MAX_PENDING_TEXT_BYTES_PER_CLIENT = 256 * 1024 * 1024;
export const MAX_PENDING_TEXT_BYTES = 512 * 1024 * 1024;

/** Ended reviews kept for History, by count... */
export const HISTORY_MAX_REVIEWS = 200;

/** ...and by the bytes of their texts: past this, the oldest ended reviews keep only their summaries. */
export const HISTORY_MAX_TEXT_BYTES = 64 * 1024 * 1024;

/** The number of bytes `text` takes encoded as UTF-8 (lone surrogates count as U+FFFD: 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Runs of code units beyond ASCII: each takes more than one UTF-8 byte. */
const NON_ASCII_RUNS = /[^\0-\x7f]+/g;

/**
 * Whether `text` fits in `maxBytes` once encoded as UTF-8 (without counting when it clearly fits). Every
 * code unit takes one byte and only those beyond ASCII more, so only their runs are counted (found by
 * the regular expression engine, not a loop over every character), and counting stops once over.
 */
export function fitsInBytes(text: string, maxBytes: number): boolean {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, and at least 1.
  if (text.length * 3 <= maxBytes) return true;
  if (text.length > maxBytes) return false;
  let bytes = text.length;
  NON_ASCII_RUNS.lastIndex = 0;
  for (let run = NON_ASCII_RUNS.exec(text); run !== null; run = NON_ASCII_RUNS.exec(text)) {
    bytes += utf8ByteLength(run[0]) - run[0].length;
    if (bytes > maxBytes) return false;
  }
  return true;
}

/** "10 MB" for a limit in bytes, as error messages state it. */
export function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}

/**
 * Text watch mode keeps per watched folder as the baselines files are reviewed against (the start
 * snapshot and the texts last accepted); past it, the least recently set go and their files' next
 * change is taken as the new baseline instead of being reviewed (said in the review's description).
 */
export const WATCH_BASELINE_MAX_BYTES = 64 * 1024 * 1024;

/** Files in one watch-mode review; a larger burst (a formatter run over the tree) is split. */
export const WATCH_MAX_FILES_PER_REVIEW = 500;

/** Quiet time after the last change on disk before watch mode puts a burst up for review. */
export const WATCH_QUIET_MS = 1500;

/*
 * The context services of the native protocol (seed 003: get_folder_content, get_entire_codebase,
 * search_workspace…). Every read they make is bounded by these, whatever the client asks.
 */

/** A file larger than this is left out of context answers and searches (said, with its size). */
export const CONTEXT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * Text one get_folder_content or get_entire_codebase answer carries at most. Even text of control
 * characters only, each escaped as six JSON bytes, stays under the frame limit at this size.
 */
export const CONTEXT_MAX_TOTAL_BYTES = 8 * 1024 * 1024;

/** Files one get_folder_content or get_entire_codebase answer carries at most. */
export const CONTEXT_MAX_FILES = 5000;

/** Folder entries one walk of the workspace looks at, at most (a search of a huge tree stops there). */
export const CONTEXT_MAX_WALK_ENTRIES = 250_000;

/** How long one walk of the workspace may take; past it the answer says what was not reached. */
export const CONTEXT_MAX_WALK_MS = 20_000;

/** Files left out that an answer names one by one; the rest are counted by reason. */
export const CONTEXT_MAX_LISTED_SKIPS = 200;

/** Files get_open_files lists at most (the files of the pending reviews). */
export const CONTEXT_MAX_OPEN_FILES = 1000;

/** .gitignore files get_filter_info names at most. */
export const CONTEXT_MAX_LISTED_RULE_FILES = 500;

/** The longest search_workspace query, literal or regular expression. */
export const SEARCH_MAX_QUERY_CHARS = 1000;

/** Matches one search_workspace answer carries at most, and how many when the client does not say. */
export const SEARCH_MAX_RESULTS = 2000;
export const SEARCH_DEFAULT_RESULTS = 200;

/** A matching line is sent cut to this many characters (around the match). */
export const SEARCH_MAX_LINE_CHARS = 400;

/** Bytes of matching lines (and their paths) one search_workspace answer carries at most. */
export const SEARCH_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The time a regular expression search may spend matching, in all. JavaScript's regular expressions
 * backtrack (a pattern like `(a+)+$` takes exponential time), so they run in a worker thread that is
 * terminated when this runs out; the answer then says the pattern took too long.
 */
export const SEARCH_REGEX_MAX_MS = 3000;

/**
 * The context services' walks and searches run in worker threads (core/context/context-pool.ts), never
 * on the thread that answers the window. A connection may have this many of them (get_file_tree
 * included) running or waiting at once; one more is refused at once with 4006 (CONTEXT_BUSY).
 */
export const CONTEXT_MAX_JOBS_PER_CLIENT = 4;

/** Context requests waiting for a worker, all clients together; one more is refused with 4006. */
export const CONTEXT_MAX_QUEUED_JOBS = 64;

/** The same queue, by the bytes of what the requests carry (queries, folder names). */
export const CONTEXT_MAX_QUEUED_BYTES = 1024 * 1024;

/** One context worker's JavaScript heap; past it the worker is ended and its request gets an error. */
export const CONTEXT_WORKER_HEAP_MB = 256;

/**
 * A connection without a token (the real Clio CLI) waits this long for the person to answer its prompt;
 * unanswered, it is closed.
 */
export const CONNECTION_PROMPT_TIMEOUT_MS = 60_000;

/** Connection prompts waiting for an answer at once; one more is refused at once, with a clear error. */
export const MAX_CONNECTION_REQUESTS = 4;

/** Programs remembered with "Always allow this program" (settings.json `trustedPrograms`). */
export const MAX_TRUSTED_PROGRAMS = 100;

/**
 * A program's identity as "Always allow this program" remembers it: at most this many arguments, and
 * this many characters for its whole command line and for the environment that changes what it runs.
 * A process whose command line or environment is longer cannot be identified fully: it is asked each time.
 */
export const MAX_PROGRAM_ARGS = 256;
export const MAX_PROGRAM_IDENTITY_CHARS = 32 * 1024;

/**
 * Back-off of connection prompts, per program: after a prompt nobody answered (or whose client left
 * first), the next one for that program waits this long, doubling each time up to the maximum; a
 * program the person denied is refused without a prompt for CONNECTION_DENIED_MS.
 */
export const CONNECTION_BACKOFF_BASE_MS = 30_000;
export const CONNECTION_BACKOFF_MAX_MS = 15 * 60_000;
export const CONNECTION_DENIED_MS = 10 * 60_000;

/** Connection prompts shown in any minute, all programs together (a flood of new programs). */
export const MAX_CONNECTION_PROMPTS_PER_MINUTE = 6;

/** What the undo journal (undo of what DiffTray wrote) keeps at most: previous texts, by bytes... */
export const UNDO_JOURNAL_MAX_BYTES = 64 * 1024 * 1024;

/** ...and by age: older write sets are dropped (the oldest first, either way). */
export const UNDO_JOURNAL_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Wrong pairing codes allowed per source and overall in a minute before pairing locks for a while. */
export const PAIRING_MAX_WRONG = 3;
