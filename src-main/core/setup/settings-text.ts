/**
 * An agent's settings file as text: parsed (comments allowed), and changed by edits at JSON paths
 * (jsonc-parser's modify and applyEdits, as VS Code edits settings) so that what the change does not touch
 * keeps its bytes: comments, formatting, a number JSON.parse would round.
 */
import {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser';
import type { HookSettingsResult, SettingsEdit } from '../../../shared/hook-setup/hook-entries';

/** Why setup cannot go on (a settings file unreadable or not JSON); the file is left as it was. */
export class HooksSetupError extends Error {}

/** An empty file counts as no settings, as the agents read it; anything else must be JSON (comments allowed). */
export function parseSettings(settingsPath: string, raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: false });
  const [first] = errors;
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new HooksSetupError(
      `${settingsPath} is not valid JSON (${printParseErrorCode(first.error)} on line ${line}); ` +
        'fix it first, it was not changed',
    );
  }
  return value;
}

/**
 * The old text with the edits applied one after another, formatted as the file is indented and with its
 * line ends. A new or empty file has nothing to keep: it is the settings, two spaces, a final newline.
 */
export function editedText(raw: string, result: HookSettingsResult): string {
  const bom = raw.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = raw.slice(bom.length);
  if (body.trim() === '') return `${bom}${JSON.stringify(result.settings, null, 2)}\n`;
  const indent = /^([ \t]+)["/]/m.exec(body)?.[1] ?? '  ';
  const formatting: FormattingOptions = {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: body.includes('\r\n') ? '\r\n' : '\n',
  };
  return bom + result.edits.reduce((text, edit) => applyOne(text, edit, formatting), body);
}

/**
 * One edit. What is inserted or replaced is formatted alone (with the gaps on either side), not the
 * lines around it: jsonc-parser's own formatting of an edit reformats whole lines, which would unfold a
 * one-line list beside ours.
 */
function applyOne(text: string, edit: SettingsEdit, formatting: FormattingOptions): string {
  if (edit.value === undefined) return removeAt(text, edit.path);
  const [change] = modify(text, edit.path, edit.value, {});
  if (!change) return text;
  const next = applyEdits(text, [change]);
  // The range reaches the tokens on either side, so that the gaps between them and ours are laid out too;
  // but what follows an item appended after another keeps the bytes it had before the closing bracket,
  // so that removing it (from the item before to its end) gives them back: `[ {…} ]` stays `[ {…} ]`.
  const appended = change.length === 0 && change.content.startsWith(',');
  let start = change.offset;
  while (start > 0 && /\s/.test(next[start - 1]!)) start--;
  let end = change.offset + change.content.length;
  if (!appended) {
    while (end < next.length && /\s/.test(next[end]!)) end++;
    end = Math.min(next.length, end + 1);
  }
  const offset = Math.max(0, start - 1);
  return applyEdits(next, format(next, { offset, length: end - offset }, formatting));
}

/**
 * Takes out the property or list item at `path` with the comma that joined it to its neighbour, and
 * nothing else, so that removing what setup added gives back the bytes from before. (jsonc-parser's own
 * removal reformats the lines around it, or, unformatted, takes the wrong comma out of `[1, 2]`.)
 */
function removeAt(text: string, jsonPath: SettingsEdit['path']): string {
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, jsonPath);
  if (!node) return text;
  const element = node.parent?.type === 'property' ? node.parent : node;
  const container = element.parent;
  if (!container?.children) return text;
  const siblings = container.children;
  const index = siblings.indexOf(element);
  const endOf = (at: JsonNode) => at.offset + at.length;
  const [start, end] =
    index > 0
      ? [endOf(siblings[index - 1]!), endOf(element)]
      : siblings.length > 1
        ? [element.offset, siblings[1]!.offset]
        : [container.offset + 1, endOf(container) - 1];
  return text.slice(0, start) + text.slice(end);
}
