/**
 * Merges DiffTray's hooks into an agent's hook settings (or takes them out), keeping every other setting
 * and hook. Pure: src-main/core/setup reads and writes the file. What differs between agents is data (a
 * HookFileShape, agent-hooks.ts): which event lists, which tools, the fields of a hook.
 *
 * Two list shapes: Claude-style lists of matcher groups (`{"matcher":"A|B","hooks":[{…}]}`: Claude Code,
 * Codex, Gemini CLI, Qwen Code) and lists of hooks themselves (Copilot CLI). Our hook is recognised by its
 * command ending in the slot's words (`hook codex`), whatever path comes before them, so re-running setup
 * updates it in place (a new path, a new matcher) and is idempotent. Removing takes out only our hooks,
 * then any group, event list or `hooks` object that removing them left empty: setup followed by removal
 * gives back the settings as they were (an empty event list that was there before is the one thing not
 * restored; agents read both the same).
 *
 * Besides the new settings, the result lists the change as edits at JSON paths, in the order they are made:
 * the caller applies them to the file's text, so that everything they do not touch keeps its bytes.
 */

import { isRecord as isObject } from '../is-record';

export type JsonObject = { [key: string]: unknown };

export interface HookSlot {
  /** The event's list under `hooks`: PreToolUse, BeforeTool, preToolUse... */
  event: string;
  /** The tools a matcher group of ours names; none when the list holds the hooks themselves (Copilot). */
  tools?: readonly string[];
  /** A Claude-style group with no matcher: an event about no tool (Stop, UserPromptSubmit). */
  matcherless?: true;
  /** The words our command ends in, after the program's path: `hook`, the agent, maybe the event. */
  hookWords: readonly string[];
  /** The hook's field that holds the command: `command`, or Copilot's `bash`. */
  commandField: string;
  /** The hook's timeout field, its value and the unit the agent reads it in. */
  timeoutField: string;
  timeout: number;
  timeoutUnit: 's' | 'ms';
  /** More fields our hook carries (Claude Code's `onFailure`). */
  extra?: JsonObject;
}

export interface HookFileShape {
  slots: readonly HookSlot[];
  /** Top-level settings the file needs besides `hooks` (Copilot's `version: 1`): set when missing, never
   * taken out (hook-file.ts deletes a file of ours that removal leaves with nothing else). */
  required?: JsonObject;
}

export interface HookSetupOptions {
  /** Take our hooks out instead of adding them. */
  remove?: boolean;
  /** More tools for the matcher groups besides the slot's own (Claude Code's `--also`). */
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

/** Settings the agent could not read as we expect; never written over. */
export class HookSettingsError extends Error {}

/** A tool name as a matcher lists it (built-in, or MCP's `mcp__server__tool`). */
export const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/** Whether `command` is a hook command ending in `words` (`<anything> hook codex`). */
export function endsInHookWords(command: unknown, words: readonly string[]): boolean {
  if (typeof command !== 'string') return false;
  return new RegExp(`(^|\\s)${words.join('\\s+')}\\s*$`).test(command);
}

export function updateHooks(
  current: unknown,
  shape: HookFileShape,
  commandFor: (hookWords: readonly string[]) => string,
  options: HookSetupOptions = {},
): HookSettingsResult {
  if (!isObject(current)) throw new HookSettingsError('the settings are not a JSON object');
  for (const tool of options.alsoTools ?? []) {
    if (!TOOL_NAME.test(tool)) throw new HookSettingsError(`"${tool}" is not a tool name`);
  }
  const settings = structuredClone(current);
  const edits: SettingsEdit[] = [];
  const edit: Edit = (path, value) => edits.push({ path, value });
  const named = shape.slots.length > 1;
  const changes = options.remove
    ? removeAll(settings, shape, edit)
    : [
        ...addRequired(settings, shape.required ?? {}, edit),
        ...shape.slots.flatMap((slot) =>
          addOurs(settings, new Slot(slot, named), commandFor(slot.hookWords), options.alsoTools ?? [], edit),
        ),
      ];
  return { settings, edits, changes, unchanged: changes.length === 0 };
}

type Edit = (path: (string | number)[], value: unknown) => void;

/** A slot with what the planner asks of it. */
class Slot {
  readonly list: string[];
  /** `hook`, or `BeforeTool hook` where a file holds several of ours. */
  readonly label: string;
  constructor(
    readonly data: HookSlot,
    named: boolean,
  ) {
    this.list = ['hooks', data.event];
    this.label = named ? `${data.event} hook` : 'hook';
  }
  get grouped(): boolean {
    return this.data.tools !== undefined || this.data.matcherless === true;
  }
  get matched(): boolean {
    return this.data.tools !== undefined;
  }
  isOurs(hook: unknown): boolean {
    return isObject(hook) && endsInHookWords(hook[this.data.commandField], this.data.hookWords);
  }
  ourHook(command: string): JsonObject {
    const { commandField, timeoutField, timeout, extra } = this.data;
    return { type: 'command', [commandField]: command, [timeoutField]: timeout, ...extra };
  }
  timeout(value: unknown): string {
    return typeof value === 'number' ? `${value} ${this.data.timeoutUnit}` : 'the default';
  }
  /** The hooks an item of the list holds: a group's, or the item itself in a flat list. */
  hooksOf(item: unknown): unknown[] {
    if (!this.grouped) return [item];
    return isObject(item) && Array.isArray(item.hooks) ? item.hooks : [];
  }
  /** A group's matcher as a person reads it. */
  matcherOf(item: unknown): string {
    const matcher = isObject(item) ? item.matcher : undefined;
    return typeof matcher === 'string' && matcher !== '' ? matcher : 'every tool';
  }
  /** ` for <matcher>` after a group's event; nothing in a flat list or a group without a matcher. */
  describe(item: unknown): string {
    return this.matched ? ` for ${this.matcherOf(item)}` : '';
  }
}

function addRequired(settings: JsonObject, required: JsonObject, edit: Edit): string[] {
  const changes: string[] = [];
  for (const [key, value] of Object.entries(required)) {
    if (settings[key] !== undefined) continue;
    settings[key] = value;
    edit([key], value);
    changes.push(`Set "${key}" to ${JSON.stringify(value)}`);
  }
  return changes;
}

/** Takes our hooks out of the item at `index`, and the item itself if nothing else is left in it. */
function removeOursFrom(slot: Slot, items: unknown[], index: number, edit: Edit): void {
  const item = items[index];
  const hooks = slot.hooksOf(item);
  const others = hooks.filter((hook) => !slot.isOurs(hook));
  if (others.length === 0 || !isObject(item) || !slot.grouped) {
    items.splice(index, 1);
    edit([...slot.list, index], undefined);
    return;
  }
  for (let at = hooks.length - 1; at >= 0; at--) {
    if (slot.isOurs(hooks[at])) edit([...slot.list, index, 'hooks', at], undefined);
  }
  item.hooks = others;
}

function addOurs(
  settings: JsonObject,
  slot: Slot,
  command: string,
  alsoTools: readonly string[],
  edit: Edit,
): string[] {
  const hooks = (settings.hooks ??= {});
  if (!isObject(hooks)) throw new HookSettingsError('"hooks" in the settings is not an object');
  const hadList = hooks[slot.data.event] !== undefined;
  const items = (hooks[slot.data.event] ??= []);
  if (!Array.isArray(items))
    throw new HookSettingsError(`"hooks.${slot.data.event}" in the settings is not a list`);

  const changes: string[] = [];
  // Our item is the first that holds nothing but our hook; ours anywhere else is taken out.
  const home = items.findIndex((item) => {
    const held = slot.hooksOf(item);
    return held.length > 0 && held.every((hook) => slot.isOurs(hook));
  });
  for (let index = items.length - 1; index >= 0; index--) {
    if (index === home || !slot.hooksOf(items[index]).some((hook) => slot.isOurs(hook))) continue;
    const where = slot.matched ? ` (matcher ${slot.matcherOf(items[index])})` : '';
    changes.push(`Remove a second DiffTray ${slot.label}${where}`);
    removeOursFrom(slot, items, index, edit);
  }

  const ours = slot.ourHook(command);
  if (home < 0) {
    const matcher = slot.matched ? mergeMatcher(slot.data.tools ?? [], undefined, alsoTools) : '';
    const added = slot.matched ? { matcher, hooks: [ours] } : slot.grouped ? { hooks: [ours] } : ours;
    items.push(added);
    if (hadList) edit([...slot.list, -1], added);
    else edit(slot.list, [added]);
    const what = slot.matched ? ` for ${matcher}` : '';
    changes.push(
      `Add a ${slot.data.event} hook${what}: ${command} (timeout ${slot.timeout(slot.data.timeout)})`,
    );
    return changes;
  }
  let at = [...slot.list, home];
  let first: JsonObject;
  if (slot.grouped) {
    const group = items[home] as JsonObject;
    const matcher = mergeMatcher(slot.data.tools ?? [], group.matcher, alsoTools);
    if (slot.matched && group.matcher !== matcher) {
      changes.push(`Change the ${slot.label}'s matcher from ${slot.matcherOf(group)} to ${matcher}`);
      group.matcher = matcher;
      edit([...at, 'matcher'], matcher);
    }
    const [kept, ...duplicates] = slot.hooksOf(group) as JsonObject[];
    if (duplicates.length > 0) changes.push(`Remove a second DiffTray ${slot.label}`);
    for (let index = duplicates.length; index >= 1; index--) edit([...at, 'hooks', index], undefined);
    first = kept!;
    group.hooks = [first];
    at = [...at, 'hooks', 0];
  } else {
    first = items[home] as JsonObject;
  }
  changes.push(...describeUpdate(slot, first, ours));
  // Other keys the person added to our hook (a status message, say) are kept.
  for (const [key, value] of Object.entries(ours)) {
    if (first[key] !== value) edit([...at, key], value);
  }
  Object.assign(first, ours);
  return changes;
}

/** What bringing our hook `first` up to date as `ours` changes, one line each. */
function describeUpdate(slot: Slot, first: JsonObject, ours: JsonObject): string[] {
  const { commandField, timeoutField } = slot.data;
  const changes: string[] = [];
  for (const [key, value] of Object.entries(ours)) {
    if (first[key] === value) continue;
    if (key === commandField) {
      changes.push(`Change the ${slot.label} command from ${String(first[key])} to ${String(value)}`);
    } else if (key === timeoutField) {
      const label = slot.label;
      changes.push(`Change the ${label} timeout from ${slot.timeout(first[key])} to ${slot.timeout(value)}`);
    } else if (key === 'type') {
      changes.push(`Make the ${slot.label} a command hook`);
    } else {
      changes.push(`Set the ${slot.label}'s "${key}" to ${JSON.stringify(value)}`);
    }
  }
  return changes;
}

function removeAll(settings: JsonObject, shape: HookFileShape, edit: Edit): string[] {
  const hooks = settings.hooks;
  if (!isObject(hooks)) return [];
  const named = shape.slots.length > 1;
  const changes = shape.slots.flatMap((data) => removeOurs(hooks, new Slot(data, named), edit));
  if (changes.length === 0) return changes;
  if (Object.keys(hooks).length === 0) {
    delete settings.hooks;
    edit(['hooks'], undefined);
  }
  // What setup requires (Copilot's version) stays: it may have been there before.
  return changes;
}

function removeOurs(hooks: JsonObject, slot: Slot, edit: Edit): string[] {
  const items = hooks[slot.data.event];
  if (!Array.isArray(items)) return [];
  const changes: string[] = [];
  for (let index = items.length - 1; index >= 0; index--) {
    const item: unknown = items[index];
    const ours = slot.hooksOf(item).filter((hook) => slot.isOurs(hook));
    for (const hook of ours) {
      const command = String((hook as JsonObject)[slot.data.commandField]);
      changes.unshift(`Remove the DiffTray ${slot.data.event} hook${slot.describe(item)}: ${command}`);
    }
    if (ours.length > 0) removeOursFrom(slot, items, index, edit);
  }
  if (changes.length > 0 && items.length === 0) {
    delete hooks[slot.data.event];
    edit(slot.list, undefined);
  }
  return changes;
}

/**
 * The slot's tools, the extra ones asked for, and those already in our matcher (tools the person added by
 * hand or with `--also` earlier stay): one `A|B|C` list. Parts of an old matcher that are not plain tool
 * names (a regular expression) are dropped, as the change line shows.
 */
function mergeMatcher(tools: readonly string[], old: unknown, alsoTools: readonly string[]): string {
  const kept =
    typeof old === 'string'
      ? old
          .split('|')
          .map((part) => part.trim())
          .filter((part) => TOOL_NAME.test(part))
      : [];
  return [...new Set([...tools, ...kept, ...alsoTools])].join('|');
}
