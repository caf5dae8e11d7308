import { codeSpans } from '../settings/cli-guides';

/** A text written for a terminal too, with what it puts in `backticks` shown as code. */
export function CodeText({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((span, i) =>
        span.code ? <code key={i}>{span.text}</code> : <span key={i}>{span.text}</span>,
      )}
    </>
  );
}
