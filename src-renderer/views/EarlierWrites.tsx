import type { UndoableWrites } from '../../shared/app-api';
import { useNow } from '../state/hooks';
import { formatAge } from '../state/time';
import { UndoWrites } from './UndoWrites';
import './EarlierWrites.css';

/**
 * Writes of reviews from an earlier run of DiffTray (the undo journal outlives a restart, History does
 * not): each can still be undone.
 */
export function EarlierWrites({ sets }: { sets: readonly UndoableWrites[] }) {
  const now = useNow();
  if (sets.length === 0) return null;
  return (
    <section
      className="dt-earlier-writes"
      aria-labelledby="dt-earlier-writes-title"
      data-testid="earlier-writes"
    >
      <h3 id="dt-earlier-writes-title" className="dt-queue-title">
        Earlier changes on disk <span className="dt-count">{sets.length}</span>
      </h3>
      <ul>
        {sets.map((set) => {
          const label = `review ${set.reviewId} of an earlier run`;
          return (
            <li key={set.id} className="dt-queue-item-ended">
              <span className="dt-queue-item-title">
                Review {set.reviewId}, {set.files.length} file{set.files.length === 1 ? '' : 's'}
              </span>
              <span className="dt-queue-item-meta">
                before DiffTray restarted · {formatAge(set.writtenAt, now)}
              </span>
              <UndoWrites set={set} label={label} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
