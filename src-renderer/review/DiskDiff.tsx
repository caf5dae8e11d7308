import { ReadOnlyDiff } from './ReadOnlyDiff';

/**
 * What changed on disk since the proposal was made: base text → the file on disk now, read-only,
 * in place of the proposal's diff while "Show disk changes" is on.
 */
export function DiskDiff({
  path,
  baseText,
  diskText,
  deleted,
}: {
  path: string;
  baseText: string;
  /** Undefined when main could not send it. */
  diskText: string | undefined;
  deleted: boolean;
}) {
  return (
    <ReadOnlyDiff
      path={path}
      original={baseText}
      modified={diskText ?? ''}
      caption={
        deleted
          ? 'The file was deleted on disk: left, the base the proposal was made on; right, nothing.'
          : diskText === undefined
            ? 'What is on disk now could not be loaded.'
            : 'Left: the base the proposal was made on. Right: the file on disk now.'
      }
      label="Changes on disk"
      editorLabel="Changes on disk since the proposal"
      originalLabel="Base text the proposal was made on"
      modifiedLabel="File on disk now"
      testId="disk-diff"
    />
  );
}
