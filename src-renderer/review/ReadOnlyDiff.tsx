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
  editorLabel = label,
  originalLabel,
  modifiedLabel,
  testId,
}: {
  path: string;
  original: string;
  modified: string;
  caption: string;
  /** The region's accessible name, and the editor's unless `editorLabel` names it. */
  label: string;
  editorLabel?: string;
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
      ariaLabel: editorLabel,
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
  }, [editorLabel, originalLabel, modifiedLabel]);

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
  }, [path, original, modified, editorLabel, originalLabel, modifiedLabel]);

  return (
    <div className="dt-disk-diff" data-testid={testId} role="region" aria-label={label}>
      <p className="dt-disk-diff-title">{caption}</p>
      <div ref={hostRef} className="dt-diff-host" />
    </div>
  );
}
