import { useEffect, useRef } from 'react';
import { guessLanguage } from './language';
import { monaco, REVIEW_DIFF_OPTIONS } from './monaco';
import { createReviewModel } from './diff-editor/text-models';

/** Two texts side by side, read-only, with a caption: a view beside the review's own diff. */
export function ReadOnlyDiff({
  path,
  original,
  modified,
  caption,
  label,
  originalLabel,
  modifiedLabel,
  testId,
}: {
  path: string;
  original: string;
  modified: string;
  caption: string;
  /** The region's and the editor's accessible name. */
  label: string;
  originalLabel: string;
  modifiedLabel: string;
  testId: string;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const editor = monaco.editor.createDiffEditor(host, {
      ...REVIEW_DIFF_OPTIONS,
      ariaLabel: label,
      originalAriaLabel: originalLabel,
      modifiedAriaLabel: modifiedLabel,
    });
    editorRef.current = editor;
    return () => {
      const model = editor.getModel();
      editorRef.current = null;
      editor.dispose();
      model?.original.dispose();
      model?.modified.dispose();
    };
  }, [label, originalLabel, modifiedLabel]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const language = guessLanguage(path, monaco.languages.getLanguages());
    const previous = editor.getModel();
    editor.setModel({
      original: createReviewModel(original, language),
      modified: createReviewModel(modified, language),
    });
    previous?.original.dispose();
    previous?.modified.dispose();
  }, [path, original, modified, label, originalLabel, modifiedLabel]);

  return (
    <div className="dt-disk-diff" data-testid={testId} role="region" aria-label={label}>
      <p className="dt-disk-diff-title">{caption}</p>
      <div ref={hostRef} className="dt-diff-host" />
    </div>
  );
}
