import type { ReviewFileSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { useHomePath } from '../state/home-path';
import { fileBadges, fileCounts, stateLabel } from './file-status';
import './FileTabs.css';

/**
 * The files of a change set: each with its state (pending / accepted / rejected / mixed), its hunk
 * counts and flags (new, binary, changed on disk, conflicts), and Accept file / Reject file. The diff
 * below shows the selected one.
 */
export function FileTabs({
  files,
  names,
  selected,
  readOnly = false,
  onSelect,
}: {
  files: ReviewFileSummary[];
  /** What each file is called on screen (its path relative to the workspace). */
  names: string[];
  selected: number;
  readOnly?: boolean;
  onSelect: (fileIndex: number) => void;
}) {
  const actions = useActions();
  const homePath = useHomePath();
  return (
    <div className="dt-files" role="group" aria-label={`Files (${selected + 1} of ${files.length})`}>
      <ul className="dt-file-list">
        {files.map((file, index) => {
          const name = names[index] ?? file.path;
          const statusId = `dt-file-status-${index}`;
          return (
            <li
              key={`${index}:${file.path}`}
              className="dt-file-row"
              data-file={index + 1}
              data-state={file.fileDecision}
              data-current={index === selected ? 'true' : 'false'}
            >
              <button
                type="button"
                className="dt-file-tab"
                aria-current={index === selected ? 'true' : undefined}
                aria-describedby={statusId}
                title={homePath(file.path)}
                onClick={() => onSelect(index)}
              >
                {name}
              </button>
              <span id={statusId} className="dt-file-status">
                <span
                  className="dt-file-state"
                  data-testid={`file-${index + 1}-state`}
                  data-state={file.fileDecision}
                >
                  {stateLabel[file.fileDecision]}
                </span>
                <span className="dt-file-counts">{fileCounts(file)}</span>
                {fileBadges(file).map((badge) => (
                  <span key={badge.key} className={`dt-badge dt-badge-${badge.key}`} title={badge.title}>
                    {badge.label}
                  </span>
                ))}
              </span>
              {!readOnly && (
                <span className="dt-file-actions">
                  <button
                    type="button"
                    className="dt-hunk-accept"
                    aria-label={`Accept file ${name}`}
                    title={`Accept every change in ${name}`}
                    onClick={() => void actions.decideFile(index, 'accepted')}
                  >
                    ✓ Accept file
                  </button>
                  <button
                    type="button"
                    className="dt-hunk-reject"
                    aria-label={`Reject file ${name}`}
                    title={`Reject every change in ${name}`}
                    onClick={() => void actions.decideFile(index, 'rejected')}
                  >
                    ✗ Reject file
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
