/**
 * Merges DiffTray's PreToolUse hook into Claude Code's settings object (or takes it out), keeping every
 * other setting and hook. Pure: the caller reads and writes settings.json (src-main/core/claude-hooks-setup).
 *
 * Claude's shape: `{"hooks":{"PreToolUse":[{"matcher":"Edit|…","hooks":[{"type":"command","command":"…",
 * "timeout":3600}]}]}}`. Our hook is recognised by its command ending in `hook claude-code`, whatever path
 * comes before it, so re-running setup updates it in place (a new path, a new matcher) and is idempotent.
 * Removing takes out only our hook, and then any entry, the `PreToolUse` list or the `hooks` object that
 * removing it left empty: a container that only our hook used goes with it, so setup followed by removal
 * gives back the settings as they were (an empty `"PreToolUse": []` that was there before setup is the one
 * thing not restored; Claude reads both the same).
 *
 * Besides the new settings, the result lists the change as edits at JSON paths, in the order they are made:
 * the caller applies them to the file's text (jsonc-parser's modify, as VS Code edits settings), so that
 * everything they do not touch keeps its bytes: comments, formatting, numbers JSON.parse would round.
 */

/** The tools whose use DiffTray reviews: edits, and shell commands as approvals. */
export const DEFAULT_HOOK_TOOLS: readonly string[] = ['Edit', 'MultiEdit', 'Write', 'Bash'];

/** Seconds Claude Code waits for the hook: long enough for a person to decide. */
export const HOOK_TIMEOUT_SECONDS = 3600;

/** A tool name as Claude's matcher lists it (built-in, or MCP's `mcp__server__tool`). */
const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

export type JsonObject = { [key: string]: unknown };

export interface HookSettingsOptions {
  /** Take our hook out instead of adding it. */
  remove?: boolean;
  /** More tools to review besides DEFAULT_HOOK_TOOLS (`--also WebFetch,Task`). */
  alsoTools?: readonly string[];
}

/** One change at a JSON path: `value` undefined removes; index -1 of a list appends. */
export interface SettingsEdit {
  path: (string | number)[];
  value: unknown;
}

export interface HookSettingsResult {
  settings: JsonObject;
  /** The same change as edits to apply in order, each at paths as they are after the ones before. */
  edits: SettingsEdit[];
  /** One human-readable line per change; none when nothing changes. */
  changes: string[];
  unchanged: boolean;
}

/** Settings Claude Code could not read as we expect; never written over. */
export class HookSettingsError extends Error {}

/** Whether a hook command is DiffTray's (`<anything> hook claude-code`). */
export function isDiffTrayHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|\s)hook\s+claude-code\s*$/.test(command);
}

/** A tool list as `--also` takes it (`WebFetch,Task`), checked; throws on a name the matcher cannot hold. */
export function parseToolList(text: string): string[] {
  const tools = text
    .split(',')
    .map((tool) => tool.trim())
    .filter((tool) => tool.length > 0);
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool)) throw new HookSettingsError(`"${tool}" is not a tool name`);
  }
  return tools;
}

export function updateHookSettings(
  current: unknown,
  command: string,
  options: HookSettingsOptions = {},
): HookSettingsResult {
  if (!isObject(current)) throw new HookSettingsError('the settings are not a JSON object');
  const settings = structuredClone(current);
  const edits: SettingsEdit[] = [];
  const edit = (path: (string | number)[], value: unknown) => edits.push({ path, value });
  const changes = options.remove
    ? removeOurHook(settings, edit)
    : addOurHook(settings, command, options.alsoTools ?? [], edit);
  return { settings, edits, changes, unchanged: changes.length === 0 };
}

type Edit = (path: (string | number)[], value: unknown) => void;

const LIST = ['hooks', 'PreToolUse'];

/** Takes our hooks out of the entry at `index`, and the entry itself if nothing else is left in it. */
function removeOursFrom(entries: unknown[], index: number, edit: Edit): void {
  const entry = entries[index] as JsonObject;
  const list = hooksOf(entry);
  const others = list.filter((hook) => !isOurs(hook));
  if (others.length === 0) {
    entries.splice(index, 1);
    edit([...LIST, index], undefined);
    return;
  }
  for (let at = list.length - 1; at >= 0; at--) {
    if (isOurs(list[at])) edit([...LIST, index, 'hooks', at], undefined);
  }
  entry.hooks = others;
}

function addOurHook(
  settings: JsonObject,
  command: string,
  alsoTools: readonly string[],
  edit: Edit,
): string[] {
  for (const tool of alsoTools) {
    if (!TOOL_NAME.test(tool)) throw new HookSettingsError(`"${tool}" is not a tool name`);
  }
  const hooks = (settings.hooks ??= {});
  if (!isObject(hooks)) throw new HookSettingsError('"hooks" in the settings is not an object');
  const hadList = hooks.PreToolUse !== undefined;
  const entries = (hooks.PreToolUse ??= []);
  if (!Array.isArray(entries))
    throw new HookSettingsError('"hooks.PreToolUse" in the settings is not a list');

  const changes: string[] = [];
  // Our entry is the first one that holds nothing but our hook; ours anywhere else is taken out.
  const home = entries.findIndex(
    (entry) => hooksOf(entry).length > 0 && hooksOf(entry).every((hook) => isOurs(hook)),
  );
  for (let index = entries.length - 1; index >= 0; index--) {
    if (index === home) continue;
    const entry: unknown = entries[index];
    if (!hooksOf(entry).some((hook) => isOurs(hook))) continue;
    changes.push(`Remove a second DiffTray hook (matcher ${describeMatcher(entry)})`);
    removeOursFrom(entries, index, edit);
  }

  if (home < 0) {
    const matcher = mergeMatcher(undefined, alsoTools);
    const added = { matcher, hooks: [ourHook(command)] };
    entries.push(added);
    if (hadList) edit([...LIST, -1], added);
    else edit(LIST, [added]);
    changes.push(`Add a PreToolUse hook for ${matcher}: ${command} (timeout ${HOOK_TIMEOUT_SECONDS} s)`);
    return changes;
  }
  const entry = entries[home] as JsonObject;
  const matcher = mergeMatcher(entry.matcher, alsoTools);
  if (entry.matcher !== matcher) {
    changes.push(`Change the hook's matcher from ${describeMatcher(entry)} to ${matcher}`);
    entry.matcher = matcher;
    edit([...LIST, home, 'matcher'], matcher);
  }
  const [first, ...duplicates] = hooksOf(entry) as JsonObject[];
  if (duplicates.length > 0) changes.push('Remove a second DiffTray hook');
  for (let at = duplicates.length; at >= 1; at--) edit([...LIST, home, 'hooks', at], undefined);
  if (first!.command !== command)
    changes.push(`Change the hook command from ${String(first!.command)} to ${command}`);
  if (first!.timeout !== HOOK_TIMEOUT_SECONDS) {
    const old = typeof first!.timeout === 'number' ? `${first!.timeout} s` : 'the default';
    changes.push(`Change the hook timeout from ${old} to ${HOOK_TIMEOUT_SECONDS} s`);
  }
  if (first!.type !== 'command') changes.push('Make the hook a command hook');
  // Other keys the person added to our hook (a status message, say) are kept.
  for (const [key, value] of Object.entries(ourHook(command))) {
    if (first![key] !== value) edit([...LIST, home, 'hooks', 0, key], value);
  }
  entry.hooks = [{ ...first, ...ourHook(command) }];
  return changes;
}

function removeOurHook(settings: JsonObject, edit: Edit): string[] {
  const hooks = settings.hooks;
  if (!isObject(hooks) || !Array.isArray(hooks.PreToolUse)) return [];
  const entries: unknown[] = hooks.PreToolUse;
  const changes: string[] = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry: unknown = entries[index];
    const ours = hooksOf(entry).filter((hook) => isOurs(hook));
    if (ours.length === 0) continue;
    for (const hook of ours) {
      changes.unshift(
        `Remove the DiffTray PreToolUse hook for ${describeMatcher(entry)}: ${String((hook as JsonObject).command)}`,
      );
    }
    removeOursFrom(entries, index, edit);
  }
  if (changes.length === 0) return changes;
  if (entries.length === 0) {
    delete hooks.PreToolUse;
    edit(LIST, undefined);
  }
  if (Object.keys(hooks).length === 0) {
    delete settings.hooks;
    edit(['hooks'], undefined);
  }
  return changes;
}

/**
 * Our tools, the extra ones asked for, and those already in our matcher (tools the person added by hand
 * or with `--also` earlier stay): one `A|B|C` list. Parts of an old matcher that are not plain tool
 * names (a regular expression) are dropped, as the change line shows.
 */
function mergeMatcher(old: unknown, alsoTools: readonly string[]): string {
  const kept =
    typeof old === 'string'
      ? old
          .split('|')
          .map((part) => part.trim())
          .filter((part) => TOOL_NAME.test(part))
      : [];
  return [...new Set([...DEFAULT_HOOK_TOOLS, ...kept, ...alsoTools])].join('|');
}

function ourHook(command: string): JsonObject {
  return { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
}

function isOurs(hook: unknown): boolean {
  return isObject(hook) && isDiffTrayHookCommand(hook.command);
}

/** The hooks of one PreToolUse entry; none when the entry is not in the shape Claude reads. */
function hooksOf(entry: unknown): unknown[] {
  return isObject(entry) && Array.isArray(entry.hooks) ? entry.hooks : [];
}

function describeMatcher(entry: unknown): string {
  const matcher = isObject(entry) ? entry.matcher : undefined;
  return typeof matcher === 'string' && matcher !== '' ? matcher : 'every tool';
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
