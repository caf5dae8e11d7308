/**
 * Protocol-agnostic frame mutations: random bytes, truncated and deeply nested JSON, wrong types, huge
 * strings, binary frames, and hostile values put into valid-looking messages.
 */
import type { Prng } from './prng';

/** One thing sent: a WebSocket frame (text or binary), an HTTP body, or raw bytes on a TCP socket. */
export interface Frame {
  /** What kind of mutation made it, for the report. */
  label: string;
  data: string | Buffer;
  /** A binary WebSocket frame (for HTTP: a body with a binary content type). */
  binary: boolean;
  /** Raw bytes written to a fresh TCP socket (HTTP endpoints only). */
  raw?: boolean;
  /** Sent on a fresh connection that never proved its token (where an endpoint has such a state). */
  preauth?: boolean;
  /** Where such a connection opens, for endpoints with more than one way in without a token (native). */
  preauthPath?: string;
  /** Extra HTTP headers (HTTP endpoints only); `null` drops a header the driver would send. */
  headers?: Record<string, string | null>;
}

/** What generators know of the run: folders, names, tokens. */
export interface FuzzContext {
  workspace: string;
  outside: string;
  /** Workspace files, relative. */
  files: readonly string[];
  /** Symlinks in the workspace that lead outside it. */
  symlinks: readonly string[];
  /** Ids of reviews pending now (the headless API fuzz uses them). */
  liveReviewIds: () => readonly string[];
  liveClientIds: () => readonly string[];
}

export const text = (label: string, data: string | Buffer): Frame => ({ label, data, binary: false });

/** A string of about `bytes` UTF-8 bytes (ASCII, or multi-byte when asked). */
export function hugeString(prng: Prng, bytes: number, multiByte = prng.chance(0.2)): string {
  if (!multiByte) return String.fromCharCode(97 + prng.int(26)).repeat(bytes);
  // "é" is two bytes in UTF-8, one UTF-16 unit.
  return 'é'.repeat(Math.floor(bytes / 2));
}

/** A few MB at most: what the fuzz mix sends as "huge"; the exact limits are probed separately. */
export function hugeSize(prng: Prng): number {
  return prng.pick([64 * 1024, 256 * 1024, 1024 * 1024, 3 * 1024 * 1024]);
}

/** Paths an attacker would try, relative and absolute. */
export function hostilePaths(ctx: FuzzContext, prng: Prng): string[] {
  const ws = ctx.workspace;
  const file = prng.pick(ctx.files);
  const link = prng.pick(ctx.symlinks);
  return [
    '../outside/secret.txt',
    '../../../../../../etc/passwd',
    `${ctx.outside}/secret.txt`,
    `${ctx.outside}/victim.txt`,
    `${ws}/../outside/victim.txt`,
    `${ws}/${link}`,
    `${ws}/link-out/secret.txt`,
    `${ws}/link-out/../outside/secret.txt`,
    `link-out/../outside/victim.txt`,
    `${ws}/link-out/dir/../victim.txt`,
    'victim-link.txt',
    `${ws}/${file}\u0000.png`,
    `${file}\u0000`,
    '',
    '.',
    '..',
    '/',
    ws,
    `${ws}/`,
    `${ws}//${file}`,
    `${ws}/./${file}`,
    `${ws}/sub/../../outside/secret.txt`,
    `file://${ws}/${file}`,
    `file://${ctx.outside}/secret.txt`,
    '~/.ssh/id_rsa',
    'C:\\Windows\\win.ini',
    '\\\\server\\share\\x',
    `${ws}/\ud800.txt`,
    `${ws}/new-${prng.int(1000)}.txt`,
    `${ws}/sub`,
    `${ws}/new-dir/deeper/x.txt`,
    '/dev/zero',
    '/proc/self/environ',
    `${ws}/${'a'.repeat(300)}.txt`,
    `${ws}/${'d/'.repeat(2100)}x`,
  ];
}

/** Paths that look inside the workspace (textually) but lead out of it through a symlink. */
export function escapePath(ctx: FuzzContext, prng: Prng): string {
  const ws = ctx.workspace;
  return prng.pick([
    `${ws}/link-out/../outside/secret.txt`,
    `${ws}/link-out/secret.txt`,
    `${ws}/link-out/dir/../secret.txt`,
    `${ws}/link-out/dir/inner.txt`,
    `${ws}/victim-link.txt`,
    `${ws}/sub/../link-out/../outside/victim.txt`,
  ]);
}

/** A value of a type (or size, or shape) the receiver does not expect. */
export function hostileValue(ctx: FuzzContext, prng: Prng): unknown {
  return prng.weighted<() => unknown>([
    [6, () => prng.pick(hostilePaths(ctx, prng))],
    [2, () => null],
    [1, () => true],
    [1, () => 0],
    [2, () => prng.pick([-1, -2147483649, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 0.5, -0.0])],
    [1, () => []],
    [1, () => ({})],
    [1, () => [null, {}, [], 'x', 1]],
    [1, () => ({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } })],
    [1, () => 'toString'],
    [1, () => '\u0000\u0001\u001f\u007f'],
    [1, () => '\ud800\udfff\ud800'],
    [1, () => Array.from({ length: 100_000 }, (_, i) => i)],
    [1, () => hugeString(prng, 64 * 1024)],
    [1, () => deepValue(prng.pick([50, 500, 1500]))],
    [1, () => prng.bytes(32).toString('latin1')],
  ])();
}

/** Nested arrays `depth` deep, as a value (small depths only: built on the stack of JSON.stringify). */
function deepValue(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Replaces, removes or adds one to three fields somewhere in `message`, and returns the result. */
export function mutateFields(message: unknown, ctx: FuzzContext, prng: Prng): unknown {
  let result = structuredClone(message);
  const count = prng.between(1, 3);
  for (let i = 0; i < count; i++) result = mutateOnce(result, ctx, prng);
  return result;
}

function mutateOnce(value: unknown, ctx: FuzzContext, prng: Prng): unknown {
  if (!isContainer(value) || prng.chance(0.15)) return hostileValue(ctx, prng);
  const keys = Object.keys(value);
  if (keys.length === 0 || prng.chance(0.1)) {
    const key = prng.pick(['extra', '__proto__', 'constructor', 'id', 'type', 'method', 'then']);
    if (Array.isArray(value)) value.push(hostileValue(ctx, prng));
    else
      Object.defineProperty(value, key, {
        value: hostileValue(ctx, prng),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return value;
  }
  const key = prng.pick(keys);
  const record = value as Record<string, unknown>;
  if (prng.chance(0.1) && !Array.isArray(value)) {
    delete record[key];
    return value;
  }
  record[key] = prng.chance(0.55) ? mutateOnce(record[key], ctx, prng) : hostileValue(ctx, prng);
  return value;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** Frames that are not what any protocol expects. */
export function junkFrame(prng: Prng, sample: string): Frame {
  return prng.weighted<() => Frame>([
    [4, () => text('random bytes (text frame)', prng.bytes(prng.int(2048)))],
    [
      3,
      () => ({
        label: 'binary frame',
        data: prng.chance(0.5) ? prng.bytes(prng.int(4096)) : Buffer.from(sample),
        binary: true,
      }),
    ],
    [3, () => text('truncated JSON', sample.slice(0, prng.int(Math.max(1, sample.length))))],
    [
      2,
      () =>
        text(
          'invalid UTF-8 in a text frame',
          Buffer.concat([
            Buffer.from(sample.slice(0, 20)),
            Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
          ]),
        ),
    ],
    [
      3,
      () =>
        text(
          'JSON of a wrong type',
          prng.pick([
            'null',
            '0',
            '-1',
            'true',
            '"hello"',
            '[]',
            '[null]',
            '{}',
            '""',
            '1e999',
            '[{}]',
            '{"__proto__":null}',
          ]),
        ),
    ],
    [2, () => deepNesting(prng)],
    [1, () => text('empty frame', '')],
    [1, () => text('whitespace', ' \n\t\r')],
    [1, () => text('two JSON values in one frame', `${sample}${sample}`)],
    [1, () => text('JSON with a BOM', `\ufeff${sample}`)],
    [
      1,
      () => text('duplicate keys', sample.replace(/^\{/, '{"id":1,"id":"x","type":null,"type":"connect",')),
    ],
  ])();
}

/** `[[[[…` (or `{"a":{"a":…`) up to 100,000 levels, closed or not. */
export function deepNesting(prng: Prng): Frame {
  const depth = prng.pick([100, 1000, 10_000, 100_000]);
  const objects = prng.chance(0.4);
  const closed = prng.chance(0.6);
  const open = objects ? '{"a":'.repeat(depth) : '['.repeat(depth);
  const close = closed ? (objects ? `1${'}'.repeat(depth)}` : ']'.repeat(depth)) : '';
  return text(
    `nested JSON, ${depth} levels of ${objects ? '{' : '['}${closed ? '' : ', unclosed'}`,
    open + close,
  );
}

/** `message` as JSON text padded (with an ignored field) to exactly `bytes` bytes. */
export function paddedTo(message: Record<string, unknown>, bytes: number): string {
  const empty = JSON.stringify({ ...message, fuzz_padding: '' });
  const room = bytes - Buffer.byteLength(empty);
  if (room < 0) throw new Error(`a ${bytes}-byte frame cannot hold ${empty.slice(0, 80)}`);
  return JSON.stringify({ ...message, fuzz_padding: 'p'.repeat(room) });
}

/** Nests `inner` (JSON text) `depth` levels deep inside arrays, as the value of a field in `message`. */
export function withDeepField(message: Record<string, unknown>, depth: number): string {
  const json = JSON.stringify({ ...message, deep: '@@DEEP@@' });
  return json.replace('"@@DEEP@@"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
}
