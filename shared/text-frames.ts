/**
 * Frames of the headless API that carry file texts (the answer to getReviewContent). The
 * texts travel as UTF-8 bytes after a small JSON header instead of inside the JSON: written as JSON,
 * megabytes of text are escaped and scanned twice on main's side and parsed on the page's (about 35 ms
 * for two 4 MB texts, measured; as bytes, 12 ms).
 *
 * Layout: the header's byte length (uint32, little endian), the header (UTF-8 JSON `{ message, texts }`,
 * `texts` the byte length of each text), then each text's bytes in order. In the header's message, every
 * text moved out is `{"$text": <index>}`. A string that is not well-formed UTF-16 (a lone surrogate)
 * would not come back from UTF-8 as it was, so it stays in the JSON.
 */

/** Strings shorter than this stay in the JSON: moving them out would cost more than it saves. */
export const MIN_TEXT_OUTSIDE = 4096;
const MARK = '$text';
const HEADER_LENGTH_BYTES = 4;

interface Header {
  message: unknown;
  texts: number[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** `message` as a text frame: long strings after the header, as UTF-8. */
export function encodeTextFrame(message: unknown): Uint8Array {
  const texts: Uint8Array[] = [];
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < MIN_TEXT_OUTSIDE || !isWellFormed(value)) return value;
    texts.push(encoder.encode(value));
    return { [MARK]: texts.length - 1 };
  });
  const header = encoder.encode(
    `{"message":${json},"texts":[${texts.map((text) => text.byteLength).join(',')}]}`,
  );
  let size = HEADER_LENGTH_BYTES + header.byteLength;
  for (const text of texts) size += text.byteLength;
  const frame = new Uint8Array(size);
  new DataView(frame.buffer).setUint32(0, header.byteLength, true);
  frame.set(header, HEADER_LENGTH_BYTES);
  let at = HEADER_LENGTH_BYTES + header.byteLength;
  for (const text of texts) {
    frame.set(text, at);
    at += text.byteLength;
  }
  return frame;
}

export class MalformedTextFrameError extends Error {}

function malformed(why: string): never {
  throw new MalformedTextFrameError(`Malformed text frame: ${why}`);
}

/** The message of a frame made by encodeTextFrame; throws MalformedTextFrameError for anything else. */
export function decodeTextFrame(frame: ArrayBuffer | Uint8Array): unknown {
  const bytes = frame instanceof Uint8Array ? frame : new Uint8Array(frame);
  if (bytes.byteLength < HEADER_LENGTH_BYTES) malformed('too short');
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const headerEnd = HEADER_LENGTH_BYTES + headerLength;
  if (headerEnd > bytes.byteLength) malformed('header longer than the frame');
  let header: Header;
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(HEADER_LENGTH_BYTES, headerEnd))) as Header;
  } catch {
    return malformed('header is not JSON');
  }
  const lengths = header?.texts;
  if (!Array.isArray(lengths) || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    malformed('text lengths missing');
  }
  const texts: string[] = [];
  let at = headerEnd;
  for (const length of lengths) {
    if (at + length > bytes.byteLength) malformed('texts longer than the frame');
    try {
      texts.push(decoder.decode(bytes.subarray(at, at + length)));
    } catch {
      malformed('a text is not UTF-8');
    }
    at += length;
  }
  if (at !== bytes.byteLength) malformed('bytes after the texts');
  return revive(header.message, texts);
}

/** `value` with every `{"$text": i}` replaced by text i. */
function revive(value: unknown, texts: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], texts);
    return value;
  }
  const record = value as Record<string, unknown>;
  if (MARK in record) {
    const index = record[MARK];
    const text = typeof index === 'number' ? texts[index] : undefined;
    if (text === undefined || Object.keys(record).length !== 1)
      malformed(`bad text reference ${String(index)}`);
    return text;
  }
  for (const key of Object.keys(record)) {
    const revived = revive(record[key], texts);
    // Only a text reference is replaced; everything else was revived in place.
    if (revived !== record[key]) record[key] = revived;
  }
  return record;
}
