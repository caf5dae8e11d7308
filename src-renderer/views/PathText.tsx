/**
 * Text holding paths, wrapped only where a person would break a path: after a separator, or at a space.
 * Browsers also wrap after a hyphen ("codex-home"), so each run between those places is kept whole
 * (white-space: nowrap), with a <wbr> after each separator.
 */
import { Fragment } from 'react';
import './PathText.css';

/** The text in runs that stay whole: cut at each space and after each path separator. */
export function pathPieces(text: string): string[] {
  return text.split(/(\s+)|(?<=[/\\])/).filter((piece) => piece !== undefined && piece !== '');
}

export function PathText({ text }: { text: string }) {
  return (
    <>
      {pathPieces(text).map((piece, i) =>
        /^\s+$/.test(piece) ? (
          <Fragment key={i}>{piece}</Fragment>
        ) : (
          <Fragment key={i}>
            <span className="dt-path-piece">{piece}</span>
            <wbr />
          </Fragment>
        ),
      )}
    </>
  );
}
