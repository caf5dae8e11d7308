/**
 * Text frames (shared/text-frames.ts): whatever a message holds comes back exactly, and a frame that is
 * not one is refused with a clear error, never half read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeTextFrame,
  encodeTextFrame,
  MalformedTextFrameError,
  MIN_TEXT_OUTSIDE,
} from '../../shared/text-frames';

const longText = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1 }), fc.nat(3))
  .map(([piece, extra]) => piece.repeat(Math.ceil((MIN_TEXT_OUTSIDE + extra) / piece.length)));
const anyText = fc.oneof(fc.string({ unit: 'binary' }), longText);
const message = fc.record({
  id: fc.nat(),
  result: fc.array(
    fc.record({ path: fc.string(), contentRevision: fc.nat(), baseText: anyText, proposedText: anyText }),
    { maxLength: 3 },
  ),
});

/** `frame` with its header replaced by `header` (texts kept). */
function withHeader(header: string, texts: Uint8Array = new Uint8Array()): Uint8Array {
  const bytes = new TextEncoder().encode(header);
  const frame = new Uint8Array(4 + bytes.byteLength + texts.byteLength);
  new DataView(frame.buffer).setUint32(0, bytes.byteLength, true);
  frame.set(bytes, 4);
  frame.set(texts, 4 + bytes.byteLength);
  return frame;
}

describe('text frames', () => {
  it('bring back any message exactly, long texts (lone surrogates too) included', () => {
    fc.assert(
      fc.property(message, (sent) => {
        expect(decodeTextFrame(encodeTextFrame(sent))).toEqual(sent);
      }),
      { numRuns: 300 },
    );
  });

  it('carry long well-formed texts after the header, not in the JSON', () => {
    const text = 'é'.repeat(MIN_TEXT_OUTSIDE);
    const frame = encodeTextFrame({ files: [{ baseText: text, note: 'short' }] });
    const headerLength = new DataView(frame.buffer).getUint32(0, true);
    const header = new TextDecoder().decode(frame.subarray(4, 4 + headerLength));
    expect(JSON.parse(header)).toEqual({
      message: { files: [{ baseText: { $text: 0 }, note: 'short' }] },
      texts: [2 * MIN_TEXT_OUTSIDE],
    });
    // A lone surrogate would not survive UTF-8: such a text stays in the JSON.
    const broken = `${text}\ud800`;
    const kept = encodeTextFrame({ text: broken });
    expect(new TextDecoder().decode(kept)).toContain('\\ud800');
    expect(decodeTextFrame(kept)).toEqual({ text: broken });
  });

  it('refuse what is not a text frame', () => {
    const good = encodeTextFrame({ text: 'a'.repeat(MIN_TEXT_OUTSIDE) });
    const cases: Array<[string, Uint8Array]> = [
      ['too short', new Uint8Array([1, 0])],
      ['header longer than the frame', good.subarray(0, 10)],
      ['header is not JSON', withHeader('{nope')],
      ['text lengths missing', withHeader('{"message":1}')],
      ['text lengths missing', withHeader('{"message":1,"texts":[-1]}')],
      ['texts longer than the frame', good.subarray(0, good.byteLength - 1)],
      ['bytes after the texts', withHeader('{"message":1,"texts":[]}', new Uint8Array([65]))],
      ['bad text reference 1', withHeader('{"message":{"$text":1},"texts":[1]}', new Uint8Array([65]))],
      ['bad text reference 0', withHeader('{"message":{"$text":0,"x":1},"texts":[1]}', new Uint8Array([65]))],
      ['a text is not UTF-8', withHeader('{"message":{"$text":0},"texts":[1]}', new Uint8Array([0xff]))],
    ];
    for (const [why, frame] of cases) {
      expect(() => decodeTextFrame(frame), why).toThrow(MalformedTextFrameError);
      expect(() => decodeTextFrame(frame), why).toThrow(why);
    }
  });
});
