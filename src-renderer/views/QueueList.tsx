import { memo } from 'react';
import type { ClientInfo, ReviewItem } from '../../shared/app-api';
import { approvalIcon, approvalLabel } from '../review/approval-model';
import { useNow } from '../state/hooks';
import { reviewPath } from '../review/remote-paths';
import { groupHeading, statusLine, type QueueGroup } from '../state/sidebar-model';
import { useAppStore } from '../state/store';
import { formatAge } from '../state/time';
import { Revealed } from '../review/Revealed';
import './QueueList.css';

function fileLabel(review: ReviewItem, workspaceFolders: readonly string[]): string {
  const first = reviewPath(review, review.files[0]?.path ?? '', workspaceFolders);
  return review.files.length > 1 ? `${first} and ${review.files.length - 1} more` : first;
}

const NO_FOLDERS: string[] = [];

/** A client's last status, small and quiet: never a dialog, never a change of focus or selection. */
export function ClientStatus({ client, now }: { client: ClientInfo; now: number }) {
  const line = statusLine(client);
  if (!line || !client.status) return null;
  return (
    <p className="dt-client-status" data-client-id={client.id}>
      {line}{' '}
      <time dateTime={new Date(client.status.at).toISOString()} className="dt-client-status-age">
        {formatAge(client.status.at, now)}
      </time>
    </p>
  );
}

/**
 * The pending reviews, grouped by client session, groups in the order of their oldest review. Choosing
 * a review happens only when the person clicks one (or presses ] / [); an arrival changes nothing here
 * but the list. The count is of pending reviews only.
 */
export function QueueList({
  groups,
  idleClients,
  selectedId,
}: {
  groups: QueueGroup[];
  /** Connected clients with nothing pending, whose status lines are still worth a glance. */
  idleClients: ClientInfo[];
  selectedId: string | null;
}) {
  const selectReview = useAppStore((s) => s.selectReview);
  const workspaceFolders = useAppStore((s) => s.snapshot?.workspaceFolders ?? NO_FOLDERS);
  const now = useNow();
  const count = groups.reduce((sum, group) => sum + group.reviews.length, 0);
  const idleWithStatus = idleClients.filter((client) => statusLine(client) !== undefined);
  return (
    <nav className="dt-queue" aria-label="Review queue">
      <h2 className="dt-queue-title">
        Reviews <span className="dt-count">{count}</span>
      </h2>
      {groups.length === 0 && <p className="dt-queue-empty">Nothing to review.</p>}
      {groups.map((group, index) => {
        const headingId = `dt-group-${index}`;
        return (
          <section
            key={group.client.id}
            className="dt-queue-group"
            aria-labelledby={headingId}
            data-client-id={group.client.id}
          >
            <h3 id={headingId} className="dt-group-heading">
              {groupHeading(group)}
            </h3>
            {!group.client.connected && <p className="dt-group-note">Disconnected</p>}
            <ClientStatus client={group.client} now={now} />
            <ul>
              {group.reviews.map((review) => (
                <QueueItem
                  key={review.id}
                  review={review}
                  workspaceFolders={workspaceFolders}
                  current={review.id === selectedId}
                  now={now}
                  onSelect={selectReview}
                />
              ))}
            </ul>
          </section>
        );
      })}
      {idleWithStatus.length > 0 && (
        <div className="dt-idle-statuses">
          {idleWithStatus.map((client) => (
            <ClientStatus key={client.id} client={client} now={now} />
          ))}
        </div>
      )}
    </nav>
  );
}

/**
 * One row of the queue. Memoized: a change to one review re-renders its row only, however long the
 * queue (the store keeps an unchanged review the same object).
 */
const QueueItem = memo(function QueueItem({
  review,
  workspaceFolders,
  current,
  now,
  onSelect,
}: {
  review: ReviewItem;
  workspaceFolders: readonly string[];
  current: boolean;
  now: number;
  onSelect: (reviewId: string) => void;
}) {
  const path = fileLabel(review, workspaceFolders);
  const approval = review.approval;
  const label = approval ? approvalLabel(approval) : review.title;
  return (
    <li>
      <button
        type="button"
        className="dt-queue-item"
        data-review-id={review.id}
        data-kind={approval ? 'approval' : 'files'}
        aria-current={current ? 'true' : undefined}
        onClick={() => onSelect(review.id)}
      >
        <span className="dt-queue-item-title">
          {approval && (
            <span className="dt-approval-icon" aria-hidden="true">
              {approvalIcon(approval)}
            </span>
          )}
          {approval ? <Revealed text={label} /> : label}
        </span>
        <span className="dt-queue-item-meta">
          <time dateTime={new Date(review.createdAt).toISOString()}>{formatAge(review.createdAt, now)}</time>
        </span>
        {path && path !== review.title && <span className="dt-queue-item-path">{path}</span>}
        {approval && review.title !== label && (
          <span className="dt-queue-item-desc">
            <Revealed text={review.title} />
          </span>
        )}
        {review.description && review.description !== review.title && (
          <span className="dt-queue-item-desc">{review.description}</span>
        )}
      </button>
    </li>
  );
});
