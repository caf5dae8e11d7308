import type { ReviewFileSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { binaryPanelText, stateLabel } from './file-status';

/**
 * A binary file is never diffed: it is accepted or rejected as a whole. The decision buttons are here
 * when the review has this one file; with several, the file list above carries them (one per file,
 * so each accessible name is unique).
 */
export function BinaryPanel({
  file,
  fileIndex,
  name,
  withButtons,
  readOnly = false,
}: {
  file: ReviewFileSummary;
  fileIndex: number;
  name: string;
  withButtons: boolean;
  readOnly?: boolean;
}) {
  const actions = useActions();
  return (
    <div className="dt-binary" data-testid="binary-panel" role="region" aria-label={`Binary file ${name}`}>
      <p className="dt-binary-text">{binaryPanelText(file.binarySize)}</p>
      <p>
        Decision:{' '}
        <span className="dt-file-state" data-testid="binary-state" data-state={file.fileDecision}>
          {stateLabel[file.fileDecision]}
        </span>
      </p>
      {!readOnly &&
        (withButtons ? (
          <div className="dt-banner-buttons">
            <button
              type="button"
              className="dt-hunk-accept"
              aria-label={`Accept file ${name}`}
              onClick={() => void actions.decideFile(fileIndex, 'accepted')}
            >
              ✓ Accept file
            </button>
            <button
              type="button"
              className="dt-hunk-reject"
              aria-label={`Reject file ${name}`}
              onClick={() => void actions.decideFile(fileIndex, 'rejected')}
            >
              ✗ Reject file
            </button>
          </div>
        ) : (
          <p className="dt-muted">
            Accept or reject it with Accept file / Reject file in the file list above.
          </p>
        ))}
    </div>
  );
}
