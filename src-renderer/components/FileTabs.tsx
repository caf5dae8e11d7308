import type { ReviewFileSummary } from '../../shared/app-api';

/** A review may touch several files; the diff shows one at a time. */
export function FileTabs({
  files,
  selected,
  onSelect,
}: {
  files: ReviewFileSummary[];
  selected: number;
  onSelect: (fileIndex: number) => void;
}) {
  return (
    <div className="dt-files" role="group" aria-label={`Files (${selected + 1} of ${files.length})`}>
      {files.map((file, index) => (
        <button
          key={file.path}
          type="button"
          className="dt-file-tab"
          aria-current={index === selected ? 'true' : undefined}
          onClick={() => onSelect(index)}
        >
          {file.path.split(/[\\/]/).pop()}
          <span className="dt-file-tab-count"> ({file.hunks.length})</span>
        </button>
      ))}
    </div>
  );
}
