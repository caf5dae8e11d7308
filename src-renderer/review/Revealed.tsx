import { Fragment } from 'react';
import { splitInvisibles } from '../../shared/invisible-chars';

/**
 * Text shown for the person's approval, with every bidi, zero-width or control character replaced by a
 * visible mark (⟨U+202E⟩, named on hover), so what is allowed is what is read.
 */
export function Revealed({ text }: { text: string }) {
  const parts = splitInvisibles(text);
  if (parts.every((part) => part.kind === 'text')) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'text' ? (
          <Fragment key={index}>{part.text}</Fragment>
        ) : (
          <mark
            key={index}
            className="dt-invisible-char"
            data-testid="invisible-char"
            title={`Hidden character: ${part.name} (${part.mark.slice(1, -1)})`}
          >
            {part.mark}
          </mark>
        ),
      )}
    </>
  );
}
