import type { ReviewFileSummary } from '../../shared/app-api';
import { useHomePath } from '../state/home-path';
import { highRiskBadge } from './file-status';
import { useReviewUi } from './review-ui';
import { CompareToggle } from './CompareToggle';
import { ViewOptions } from './ViewOptions';

/** The file on screen: its path, what kind of change it is, and how it is shown (edit, compare, view). */
export function FileBar({
  file,
  fileName,
  readOnly,
  editable,
}: {
  file: ReviewFileSummary;
  fileName: string;
  readOnly: boolean;
  /** The proposed side is editable now (asked for, or conflicts left to edit out). */
  editable: boolean;
}) {
  const homePath = useHomePath();
  const editing = useReviewUi((s) => s.editing);
  const setEditing = useReviewUi((s) => s.setEditing);
  const highRisk = highRiskBadge(file.path);
  const conflicts = file.conflicts;
  const otherBase = file.binary ? undefined : file.otherBase;
  return (
    <div className="dt-file-bar">
      <code className="dt-file-path" title={homePath(file.path)}>
        {fileName}
      </code>
      {highRisk && (
        <strong className="dt-badge dt-badge-high-risk" data-testid="high-risk-mark" title={highRisk.title}>
          {highRisk.label}
        </strong>
      )}
      {file.isNewFile && <span className="dt-badge">New file</span>}
      {file.binary && <span className="dt-badge">Binary</span>}
      {!file.binary && file.hunks.length === 0 && <span className="dt-badge">No changes</span>}
      {!readOnly && !file.binary && (
        <button
          type="button"
          className="dt-edit-toggle"
          aria-pressed={editable}
          disabled={conflicts > 0}
          title={
            conflicts > 0
              ? 'The proposal stays editable until its conflicts are resolved'
              : 'Edit the proposed text (right side) before accepting; your edits become part of the result'
          }
          onClick={() => setEditing(!editing)}
        >
          ✎ Edit proposal
        </button>
      )}
      {editable && (
        <span className="dt-badge dt-badge-editing" data-testid="editing-badge">
          Editing the proposal — changes are saved as you type
        </span>
      )}
      {otherBase && <CompareToggle kind={otherBase} />}
      <ViewOptions />
    </div>
  );
}
