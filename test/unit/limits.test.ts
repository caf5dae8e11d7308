import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitsInBytes, utf8ByteLength } from '../../shared/limits';

describe('fitsInBytes', () => {
  it('agrees with the UTF-8 encoding at every limit around the text size', () => {
    const unit = fc.constantFrom('a', '\n', 'é', '€', '\u{1F600}', '\uD800', '\uDC00', '\u07FF', '\u0800');
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 40 }).map((units) => units.join('')),
        (text) => {
          const bytes = Buffer.byteLength(text, 'utf8');
          expect(utf8ByteLength(text)).toBe(bytes);
          for (let max = Math.max(0, text.length - 1); max <= bytes + 1; max++) {
            expect(fitsInBytes(text, max)).toBe(bytes <= max);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts runs beyond ASCII anywhere in a long text, and the limit holds to the byte', () => {
    const text = `${'x'.repeat(1000)}é€${'y'.repeat(1000)}\u{1F600}`;
    const bytes = Buffer.byteLength(text, 'utf8');
    expect(bytes).toBe(2000 + 2 + 3 + 4);
    expect(fitsInBytes(text, bytes)).toBe(true);
    expect(fitsInBytes(text, bytes - 1)).toBe(false);
    // Called again: nothing is left over from the call before.
    expect(fitsInBytes(text, bytes)).toBe(true);
  });
});
