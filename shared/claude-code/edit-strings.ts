/**
 * The string rules Claude Code 2.1.197 uses when its Edit tool replaces `old_string` by `new_string`,
 * read out of the shipped binary (minified names in brackets, to find them again in a later version):
 * finding the text actually meant [c$e], carrying curly quotes over to the new text [e_t, lsf, csf, Xol],
 * carrying \uXXXX escapes over [Yol], and the replacement itself [Jol]. Pure and exact: a replay that
 * differs from Claude by one character would show the reviewer something other than what gets written.
 */

const LEFT_SINGLE = '\u2018';
const RIGHT_SINGLE = '\u2019';
const LEFT_DOUBLE = '\u201C';
const RIGHT_DOUBLE = '\u201D';

const ESCAPE = /\\u[0-9a-fA-F]{4}/;
const NON_ASCII = /[\u0080-\uffff]/;

/** Curly quotes as straight ones, one character for one, so indexes stay valid [Vol]. */
function straightenQuotes(text: string): string {
  return text
    .replaceAll(LEFT_SINGLE, "'")
    .replaceAll(RIGHT_SINGLE, "'")
    .replaceAll(LEFT_DOUBLE, '"')
    .replaceAll(RIGHT_DOUBLE, '"');
}

/** Every \uXXXX turned into its character; an escaped backslash (`\\`) stays as it is [zCo]. */
function unescapeUnicode(text: string): string {
  return text.replace(/(\\\\)|\\u([0-9a-fA-F]{4})/g, (whole, backslashes: string | undefined, hex: string) =>
    backslashes !== undefined ? whole : String.fromCharCode(parseInt(hex, 16)),
  );
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern for `text` with each non-ASCII character written as \uXXXX, either hex case [zol]. */
function escapedFormPattern(text: string): string {
  let pattern = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      pattern += escapeRegExp(text[i]!);
      continue;
    }
    pattern += '\\\\u';
    for (const digit of code.toString(16).padStart(4, '0')) {
      pattern += digit >= 'a' ? `[${digit}${digit.toUpperCase()}]` : digit;
    }
  }
  return pattern;
}

/**
 * The text in `content` that `oldString` stands for [c$e]: itself; else the same span with curly quotes
 * taken as straight ones; else `oldString` with its \uXXXX escapes unescaped; else with its non-ASCII
 * characters escaped. Null: not found ("String to replace not found in file").
 */
export function findActualString(content: string, oldString: string): string | null {
  if (content.includes(oldString)) return oldString;
  const at = straightenQuotes(content).indexOf(straightenQuotes(oldString));
  if (at !== -1) return content.substring(at, at + oldString.length);
  if (ESCAPE.test(oldString)) {
    const unescaped = unescapeUnicode(oldString);
    if (unescaped !== oldString && content.includes(unescaped)) return unescaped;
  }
  if (NON_ASCII.test(oldString)) {
    const match = content.match(new RegExp(escapedFormPattern(oldString)));
    if (match) return match[0];
  }
  return null;
}

/**
 * Whether a quote at `index` opens [Xol]: at the start, or after a space, tab, line break, an opening
 * bracket or a dash (em or en).
 */
function opensQuote(chars: readonly string[], index: number): boolean {
  if (index === 0) return true;
  const before = chars[index - 1];
  return (
    before === ' ' ||
    before === '\t' ||
    before === '\n' ||
    before === '\r' ||
    before === '(' ||
    before === '[' ||
    before === '{' ||
    before === '\u2014' ||
    before === '\u2013'
  );
}

const LETTER = /\p{L}/u;

/** Straight double quotes as curly ones [lsf]. */
function curlDoubleQuotes(text: string): string {
  const chars = [...text];
  return chars.map((c, i) => (c === '"' ? (opensQuote(chars, i) ? LEFT_DOUBLE : RIGHT_DOUBLE) : c)).join('');
}

/** Straight single quotes as curly ones; one between two letters is an apostrophe [csf]. */
function curlSingleQuotes(text: string): string {
  const chars = [...text];
  return chars
    .map((c, i) => {
      if (c !== "'") return c;
      const before = chars[i - 1];
      const after = chars[i + 1];
      if (before !== undefined && LETTER.test(before) && after !== undefined && LETTER.test(after)) {
        return RIGHT_SINGLE;
      }
      return opensQuote(chars, i) ? LEFT_SINGLE : RIGHT_SINGLE;
    })
    .join('');
}

/**
 * `newString` in the file's quote style [e_t]: when the text found differs from `oldString` and holds
 * curly quotes of a kind, straight quotes of that kind in `newString` become curly.
 */
export function preserveQuoteStyle(oldString: string, actualOld: string, newString: string): string {
  if (oldString === actualOld) return newString;
  const doubles = actualOld.includes(LEFT_DOUBLE) || actualOld.includes(RIGHT_DOUBLE);
  const singles = actualOld.includes(LEFT_SINGLE) || actualOld.includes(RIGHT_SINGLE);
  let result = newString;
  if (doubles) result = curlDoubleQuotes(result);
  if (singles) result = curlSingleQuotes(result);
  return result;
}

/**
 * `newString` in the file's escape style [Yol]: when the file held as \uXXXX what `oldString` wrote as
 * characters, `newString`'s non-ASCII characters are escaped too (the hex case as found, or the case
 * the file mostly uses); when it was the other way round, `newString` is unescaped.
 */
export function preserveEscapeStyle(oldString: string, actualOld: string, newString: string): string {
  if (oldString === actualOld) return newString;
  if (NON_ASCII.test(oldString) && new RegExp(`^${escapedFormPattern(oldString)}$`).test(actualOld)) {
    const hexByCode = new Map<number, string>();
    let upper = 0;
    let lower = 0;
    for (let i = 0, at = 0; i < oldString.length; i++) {
      const code = oldString.charCodeAt(i);
      if (code < 128) {
        at += 1;
        continue;
      }
      const hex = actualOld.slice(at + 2, at + 6);
      hexByCode.set(code, hex);
      for (const digit of hex) {
        if (digit >= 'a' && digit <= 'f') lower++;
        else if (digit >= 'A' && digit <= 'F') upper++;
      }
      at += 6;
    }
    return newString.replace(/[\u0080-\uffff]/g, (char) => {
      const code = char.charCodeAt(0);
      const hex = hexByCode.get(code);
      if (hex !== undefined) return '\\u' + hex;
      const fresh = code.toString(16).padStart(4, '0');
      return '\\u' + (upper > lower ? fresh.toUpperCase() : fresh);
    });
  }
  if (ESCAPE.test(oldString) && unescapeUnicode(oldString) === actualOld) return unescapeUnicode(newString);
  return newString;
}

/**
 * The replacement itself [Jol]: literal (no `$` patterns), the first occurrence or all. Deleting text
 * that does not end a line but is followed by one deletes that line break too.
 */
export function applyReplacement(
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
): string {
  const replace = (target: string) =>
    replaceAll ? content.replaceAll(target, () => newString) : content.replace(target, () => newString);
  if (newString !== '') return replace(oldString);
  if (!oldString.endsWith('\n') && content.includes(oldString + '\n')) return replace(oldString + '\n');
  return replace(oldString);
}

/** Whether `needle` occurs in `text` more than once, overlapping occurrences included. */
export function occursMoreThanOnce(text: string, needle: string): boolean {
  const first = text.indexOf(needle);
  return first !== -1 && text.indexOf(needle, first + 1) !== -1;
}
