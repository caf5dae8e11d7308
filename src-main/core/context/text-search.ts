/**
 * search_workspace: text search over the workspace's text files, walked confined with .gitignore
 * honoured (confined-walk.ts), binary files and files over CONTEXT_MAX_FILE_BYTES left out (said so).
 * One result per matching line, with its 1-based line number and the line cut to SEARCH_MAX_LINE_CHARS
 * around the match; bounded in results and in bytes.
 *
 * A literal query is found with indexOf (case-insensitive: the literal, escaped, as a regular expression
 * with the `i` flag, which cannot backtrack badly). A regular expression runs in a worker thread bounded
 * in time (regex-worker.ts).
 */
import type { LeftOut } from '../../../shared/native-context';
import {
  CONTEXT_MAX_WALK_ENTRIES,
  CONTEXT_MAX_WALK_MS,
  SEARCH_MAX_LINE_CHARS,
  SEARCH_MAX_RESPONSE_BYTES,
  SEARCH_REGEX_MAX_MS,
  utf8ByteLength,
} from '../../../shared/limits';
import { confinedWalk } from './confined-walk';
import { contextRules, type ContextFolder } from './context-folders';
import { LeftOutList, readWalkedText } from './left-out';
import { RegexMatcher, RegexTimeoutError, type RegexMatch } from './regex-worker';
import { messageOf } from '../../../shared/error-message';

export interface SearchQuery {
  query: string;
  isRegex: boolean;
  caseSensitive: boolean;
  maxResults: number;
}

export interface SearchMatch {
  path: string;
  /** 1-based. */
  line: number;
  lineText: string;
  lineTruncated: boolean;
}

export interface SearchOutcome extends LeftOut {
  matches: SearchMatch[];
  stoppedBy?: 'max_results' | 'response_bytes' | 'regex_time';
  filesSearched: number;
}

/** The query is not a regular expression JavaScript compiles. */
export class SearchQueryError extends Error {}

/** Texts sent to the regex worker at once: few round trips, little held. */
const REGEX_BATCH_CHARS = 4 * 1024 * 1024;

/** What one result costs in the answer beyond its line and path (field names, numbers, URLs). */
const RESULT_OVERHEAD_BYTES = 256;

export async function searchTexts(
  targets: readonly ContextFolder[],
  folders: readonly string[],
  query: SearchQuery,
): Promise<SearchOutcome> {
  const search = new Search(query);
  try {
    for (const target of targets) {
      if (search.stopped) break;
      await search.run(target, folders);
    }
    await search.flush();
  } finally {
    await search.close();
  }
  return search.outcome();
}

class Search {
  private readonly matches: SearchMatch[] = [];
  private readonly leftOut = new LeftOutList();
  private stoppedBy: SearchOutcome['stoppedBy'];
  private bytes = 0;
  private filesSearched = 0;
  private readonly regex: RegexMatcher | undefined;
  private readonly inline: RegExp | undefined;
  private batch: Array<{ path: string; text: string }> = [];
  private batchChars = 0;
  private readonly deadline = Date.now() + CONTEXT_MAX_WALK_MS;

  constructor(private readonly query: SearchQuery) {
    const flags = query.caseSensitive ? '' : 'i';
    if (query.isRegex) {
      try {
        new RegExp(query.query, flags);
      } catch (error) {
        throw new SearchQueryError(`Not a regular expression: ${messageOf(error)}`);
      }
      this.regex = new RegexMatcher(query.query, flags, SEARCH_REGEX_MAX_MS);
    } else if (!query.caseSensitive) {
      this.inline = new RegExp(query.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
    }
  }

  get stopped(): boolean {
    return this.stoppedBy !== undefined;
  }

  async run(target: ContextFolder, folders: readonly string[]): Promise<void> {
    const { rules } = await contextRules(target, folders);
    const walk = confinedWalk(target.folder, {
      folders,
      rules,
      maxEntries: CONTEXT_MAX_WALK_ENTRIES,
      deadline: this.deadline,
    });
    for await (const item of walk) {
      if (item.kind === 'skip') {
        this.leftOut.add(item.path, item.reason, item.note);
        continue;
      }
      const text = await readWalkedText(item, this.leftOut);
      if (text === undefined) continue;
      this.filesSearched++;
      if (this.regex) await this.queue(item.path, text);
      else this.matchLiteral(item.path, text);
      if (this.stopped) return;
    }
  }

  private matchLiteral(path: string, text: string): void {
    const { query } = this.query;
    let line = 1;
    let lineStart = 0;
    let pos = this.inline ? searchFrom(this.inline, text, 0) : text.indexOf(query);
    while (pos !== -1) {
      for (
        let nl = text.indexOf('\n', lineStart);
        nl !== -1 && nl < pos;
        nl = text.indexOf('\n', lineStart)
      ) {
        line++;
        lineStart = nl + 1;
      }
      let lineEnd = text.indexOf('\n', pos);
      if (lineEnd === -1) lineEnd = text.length;
      if (!this.add(path, text, line, lineStart, lineEnd, pos)) return;
      if (lineEnd >= text.length) return;
      pos = this.inline ? searchFrom(this.inline, text, lineEnd + 1) : text.indexOf(query, lineEnd + 1);
    }
  }

  private async queue(path: string, text: string): Promise<void> {
    this.batch.push({ path, text });
    this.batchChars += text.length;
    if (this.batchChars >= REGEX_BATCH_CHARS) await this.flush();
  }

  /** Matches the texts waiting for the regex worker. */
  async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchChars = 0;
    if (!this.regex || batch.length === 0 || this.stopped) return;
    let found: RegexMatch[];
    try {
      found = await this.regex.match(
        batch.map((file) => file.text),
        this.query.maxResults - this.matches.length,
      );
    } catch (error) {
      if (!(error instanceof RegexTimeoutError)) throw error;
      this.stoppedBy = 'regex_time';
      return;
    }
    for (const [index, line, lineStart, lineEnd, matchIndex] of found) {
      const file = batch[index]!;
      if (!this.add(file.path, file.text, line, lineStart, lineEnd, matchIndex)) return;
    }
  }

  /** Adds one result; false once the answer is full. */
  private add(path: string, text: string, line: number, start: number, end: number, at: number): boolean {
    if (this.matches.length >= this.query.maxResults) {
      this.stoppedBy = 'max_results';
      return false;
    }
    const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const from =
      lineEnd - start <= SEARCH_MAX_LINE_CHARS ? start : Math.max(start, at - SEARCH_MAX_LINE_CHARS / 4);
    const to = Math.min(lineEnd, from + SEARCH_MAX_LINE_CHARS);
    const lineText = text.slice(from, to);
    const bytes = utf8ByteLength(lineText) + utf8ByteLength(path) * 3 + RESULT_OVERHEAD_BYTES;
    if (this.bytes + bytes > SEARCH_MAX_RESPONSE_BYTES) {
      this.stoppedBy = 'response_bytes';
      return false;
    }
    this.bytes += bytes;
    this.matches.push({ path, line, lineText, lineTruncated: from > start || to < lineEnd });
    return true;
  }

  async close(): Promise<void> {
    await this.regex?.close();
  }

  outcome(): SearchOutcome {
    return {
      matches: this.matches,
      ...(this.stoppedBy !== undefined && { stoppedBy: this.stoppedBy }),
      filesSearched: this.filesSearched,
      ...this.leftOut.result(),
    };
  }
}

/** The next match of a global pattern at or after `from`. */
function searchFrom(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}
