/**
 * Whether the person trusted DiffTray's Codex hook, read from Codex's config.toml; never written (the
 * trust is theirs to give, in Codex: `/hooks`, then `t`). docs/protocols/codex.md has the format.
 *
 * Codex 0.171.0 records a trusted hook as a table `[hooks.state."<hooks.json path>:<event>:<group>:<hook>"]`
 * holding `trusted_hash = "sha256:<hex>"` (and `enabled = false` when the person turned it off). The hash
 * is SHA-256 of compact JSON with keys sorted at every level: `{"event_name":"pre_tool_use","hooks":
 * [{"async":false,"command":…,"timeout":<seconds, 600 when unset>,"type":"command"}],"matcher":…}`. A
 * changed command, timeout or matcher changes the hash, and Codex asks again.
 */
import { createHash } from 'node:crypto';
import { isRecord } from '../../../shared/is-record';

export interface CodexHookState {
  trustedHash?: string;
  enabled?: boolean;
}

/** Codex's default timeout for a command hook, in seconds. */
const CODEX_DEFAULT_TIMEOUT = 600;

/** Codex's key for a hook: where it is configured, its event, its group's index and its own. */
export function codexHookKey(hooksFile: string, event: string, group: number, hook: number): string {
  return `${hooksFile}:${snakeCase(event)}:${group}:${hook}`;
}

/** The hash Codex records when the person trusts `hook` of `group` (a matcher group of hooks.json). */
export function codexTrustHash(event: string, group: unknown, hook: unknown): string {
  const matcher = isRecord(group) && typeof group.matcher === 'string' ? group.matcher : undefined;
  const fields = isRecord(hook) ? hook : {};
  const timeout = typeof fields.timeout === 'number' ? Math.max(1, fields.timeout) : CODEX_DEFAULT_TIMEOUT;
  const handler: Record<string, unknown> = {
    type: 'command',
    command: fields.command,
    timeout,
    async: fields.async === true,
  };
  if (typeof fields.statusMessage === 'string') handler.statusMessage = fields.statusMessage;
  const identity = {
    event_name: snakeCase(event),
    hooks: [handler],
    ...(matcher !== undefined && { matcher }),
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sorted(identity)))
    .digest('hex')}`;
}

/**
 * The `[hooks.state."<key>"]` tables of a config.toml, as Codex writes them (a table per hook). Other
 * TOML is skipped, not checked: this only reads what Codex itself recorded.
 */
export function readCodexHookStates(configToml: string): Map<string, CodexHookState> {
  const states = new Map<string, CodexHookState>();
  let current: CodexHookState | undefined;
  for (const line of configToml.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) {
      // A table header ends the one before; only `[hooks.state.<key>]` starts one of ours.
      const header = /^\s*\[(?!\[)(.*)\]\s*(?:#[^\]]*)?$/.exec(line);
      const parts = header ? dottedKey(header[1]!) : undefined;
      current = undefined;
      if (parts && parts.length === 3 && parts[0] === 'hooks' && parts[1] === 'state') {
        current = states.get(parts[2]!) ?? {};
        states.set(parts[2]!, current);
      }
      continue;
    }
    if (!current) continue;
    const hash = /^\s*trusted_hash\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*(?:#.*)?$/.exec(line);
    if (hash) current.trustedHash = tomlString(hash[1]!);
    const enabled = /^\s*enabled\s*=\s*(true|false)\s*(?:#.*)?$/.exec(line);
    if (enabled) current.enabled = enabled[1] === 'true';
  }
  return states;
}

/** A TOML dotted key (`hooks.state."/a/b:pre_tool_use:0:0"`) as its parts; undefined if it is not one. */
function dottedKey(text: string): string[] | undefined {
  const parts: string[] = [];
  const part = /\s*([A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')\s*(\.|$)/y;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const match = part.exec(text);
    if (!match) return undefined;
    const word = match[1]!;
    parts.push(/^["']/.test(word) ? tomlString(word) : word);
    at = part.lastIndex;
    if (match[2] === '') break;
  }
  return parts;
}

/** A TOML basic ("…", with escapes) or literal ('…') string's value. */
function tomlString(quoted: string): string {
  if (quoted.startsWith("'")) return quoted.slice(1, -1);
  const escapes: Record<string, string> = {
    b: '\b',
    t: '\t',
    n: '\n',
    f: '\f',
    r: '\r',
    '"': '"',
    '\\': '\\',
  };
  return quoted
    .slice(1, -1)
    .replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, escape: string) =>
      escape.length > 1 ? String.fromCodePoint(parseInt(escape.slice(1), 16)) : (escapes[escape] ?? escape),
    );
}

/** `PreToolUse` as Codex names it in keys and hashes: `pre_tool_use`. */
function snakeCase(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
}

/** Keys sorted at every level, as Codex canonicalises JSON before hashing it. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}
