import { useEffect, useRef } from 'react';
import { guessLanguage } from './language';
import { monaco, REVIEW_DIFF_OPTIONS } from './monaco';
import { createReviewModel } from './diff-editor/text-models';

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
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const editor = monaco.editor.createDiffEditor(host, {
      ...REVIEW_DIFF_OPTIONS,
      ariaLabel: 'Changes on disk since the proposal',
      originalAriaLabel: 'Base text the proposal was made on',
      modifiedAriaLabel: 'File on disk now',
    });
    editorRef.current = editor;
    return () => {
      const model = editor.getModel();
      editorRef.current = null;
      editor.dispose();
      model?.original.dispose();
      model?.modified.dispose();
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const language = guessLanguage(path, monaco.languages.getLanguages());
    const previous = editor.getModel();
    editor.setModel({
      original: createReviewModel(baseText, language),
      modified: createReviewModel(diskText ?? '', language),
    });
    previous?.original.dispose();
    previous?.modified.dispose();
  }, [path, baseText, diskText]);

  return (
    <div className="dt-disk-diff" data-testid="disk-diff" role="region" aria-label="Changes on disk">
      <p className="dt-disk-diff-title">
        {deleted
          ? 'The file was deleted on disk: left, the base the proposal was made on; right, nothing.'
          : diskText === undefined
            ? 'What is on disk now could not be loaded.'
            : 'Left: the base the proposal was made on. Right: the file on disk now.'}
      </p>
      <div ref={hostRef} className="dt-diff-host" />
    </div>
  );
}
