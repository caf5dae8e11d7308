/**
 * The review's Monaco views as ReviewView places them, each drawn once the editor has loaded
 * (editor-loader.ts) and a light placeholder of the same size until then. The wrappers import only
 * types from the views, so Monaco stays out of the page's first script.
 */
import type { ComponentProps } from 'react';
import type { DiffEditorProps } from './diff-editor/diff-editor-props';
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
        <div className="dt-pane-message" role="alert">
          <p>The editor could not be loaded: {error}</p>
          {/* The browser remembers a script that failed to load for the page's life: only a reload fetches it again. */}
          <button type="button" onClick={() => window.location.reload()}>
            Reload the window
          </button>
        </div>
      )}
    </div>
  );
}

export function DiffEditor(props: DiffEditorProps) {
  const { views, error } = useEditorViews();
  return views ? <views.DiffEditor {...props} /> : <EditorPlaceholder error={error} />;
}

export function DiskDiff(props: ComponentProps<EditorViews['DiskDiff']>) {
  const { views, error } = useEditorViews();
  return views ? <views.DiskDiff {...props} /> : <EditorPlaceholder error={error} />;
}

export function ReadOnlyDiff(props: ComponentProps<EditorViews['ReadOnlyDiff']>) {
  const { views, error } = useEditorViews();
  return views ? <views.ReadOnlyDiff {...props} /> : <EditorPlaceholder error={error} />;
}
