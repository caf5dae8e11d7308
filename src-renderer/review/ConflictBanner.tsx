import { useEffect, useRef } from 'react';
import { conflictBannerText } from './file-status';
import { useReviewUi } from './review-ui';
import { useAppStore } from '../state/store';

/**
 * After a rebase left conflict blocks (<<<<<<< … >>>>>>>) in the proposal: how many, and a way to go
 * and edit them out. The proposed side is editable while conflicts remain; Submit waits for none.
 */
export function ConflictBanner({
  conflicts,
  name,
  readOnly = false,
}: {
  conflicts: number;
  name: string;
  readOnly?: boolean;
}) {
  const requestEdit = useReviewUi((s) => s.requestConflictEdit);
  const previous = useRef(conflicts);
  // Announce when conflicts appear or change (after a rebase, after an edit removed some).
  useEffect(() => {
    if (previous.current !== conflicts) {
      useAppStore
        .getState()
        .announce(
          conflicts > 0 ? `${name}: ${conflictBannerText(conflicts)}` : `${name}: all conflicts resolved`,
        );
    }
    previous.current = conflicts;
  }, [conflicts, name]);
  if (conflicts <= 0) return null;
  return (
    <div className="dt-conflict-banner" data-testid="conflict-banner" role="region" aria-label="Conflicts">
      <p>
        <strong>{conflictBannerText(conflicts)}</strong> The rebase left conflict markers (
        <code>&lt;&lt;&lt;&lt;&lt;&lt;&lt;</code> … <code>&gt;&gt;&gt;&gt;&gt;&gt;&gt;</code>) in the proposed
        text of {name}. Keep what should stay, delete the markers; Submit waits until none remain.
      </p>
      {!readOnly && (
        <div className="dt-banner-buttons">
          <button type="button" onClick={requestEdit}>
            Go to the first conflict
          </button>
        </div>
      )}
    </div>
  );
}
