/**
 * A lazily loaded part of the page (the editor, Settings) that could not be loaded: why, and the reload
 * that fetches it again (the browser remembers a script that failed to load for the page's life).
 */
export function LoadFailed({ what, error }: { what: string; error: string }) {
  return (
    <div className="dt-pane-message" role="alert">
      <p>
        {what} could not be loaded: {error}
      </p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload the window
      </button>
    </div>
  );
}
