import type { OtherBaseKind } from '../../shared/app-api';
import { compareChoices } from './other-base';
import { useReviewUi } from './review-ui';

/**
 * "Since your review" / "Since the turn started": for a turn review's file the person reviewed earlier in
 * the turn, which starting point the diff area compares the proposal with.
 */
export function CompareToggle({ kind }: { kind: OtherBaseKind }) {
  const showOther = useReviewUi((s) => s.showOtherBase);
  const setShowOther = useReviewUi((s) => s.setShowOtherBase);
  return (
    <div className="dt-toolbar-group dt-compare" role="group" aria-label="Compare with">
      {compareChoices(kind).map((choice) => (
        <button
          key={choice.label}
          type="button"
          aria-pressed={choice.other === showOther}
          title={choice.title}
          onClick={() => setShowOther(choice.other)}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
