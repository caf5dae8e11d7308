/**
 * The review's Monaco views as ReviewView places them, each drawn once the editor has loaded
 * (editor-loader.ts) and a light placeholder of the same size until then. The wrappers import only
 * types from the views, so Monaco stays out of the page's first script.
 */
import type { ComponentProps } from 'react';
import type { DiffEditorProps } from './diff-editor/diff-editor-props';
import { LoadFailed } from '../views/LoadFailed';
import { useEditorViews, type EditorViews } from './editor-loader';
import './LazyEditorViews.css';

function EditorPlaceholder({ error }: { error: string | null }) {
  return (
    <div className="dt-editor-placeholder" data-testid="editor-loading">
      {error === null ? (
        <p className="dt-pane-message" role="status">
          Loading the editor…
        </p>
      ) : (
        <LoadFailed what="The editor" error={error} />
      )}
    </div>
  );
}

export function DiffEditor(props: DiffEditorProps) {
  const { module: views, error } = useEditorViews();
  return views ? <views.DiffEditor {...props} /> : <EditorPlaceholder error={error} />;
}

export function DiskDiff(props: ComponentProps<EditorViews['DiskDiff']>) {
  const { module: views, error } = useEditorViews();
  return views ? <views.DiskDiff {...props} /> : <EditorPlaceholder error={error} />;
}

export function ReadOnlyDiff(props: ComponentProps<EditorViews['ReadOnlyDiff']>) {
  const { module: views, error } = useEditorViews();
  return views ? <views.ReadOnlyDiff {...props} /> : <EditorPlaceholder error={error} />;
}
