/** `get_review`, `list_reviews` and `cancel_review`: the reviews proposed in this session. */
import { ErrorCode, type ReviewInfo } from '../../../../shared/native-protocol';
import type { ClientPort } from '../../../core/clients/agent-session';
import type { ReviewRecord, Session } from '../sessions';
import { defineCommand, RequestError, sessionOf } from './command';

export const getReview = defineCommand('get_review', (payload, context) => {
  const record = recordOf(sessionOf(context, 'get_review'), payload.review_id);
  context.respond(reviewInfo(context.services.port, record));
});

export const listReviews = defineCommand('list_reviews', (_payload, context) => {
  const { port } = context.services;
  const records = [...sessionOf(context, 'list_reviews').reviews.values()];
  context.respond({ reviews: records.map((record) => reviewInfo(port, record)) });
});

export const cancelReview = defineCommand('cancel_review', (payload, context) => {
  const record = recordOf(sessionOf(context, 'cancel_review'), payload.review_id);
  const request = record.request;
  if (!request || record.result) {
    context.respond({ cancelled: false });
    return;
  }
  const count = context.services.port.cancelRequests(
    new Set([request]),
    payload.reason?.trim() || 'cancelled by the client',
  );
  context.respond({ cancelled: count > 0 });
});

function recordOf(session: Session, reviewId: string): ReviewRecord {
  const record = session.reviews.get(reviewId);
  if (!record) throw new RequestError(ErrorCode.INVALID_PAYLOAD, `No review ${reviewId} in this session`);
  return record;
}

function reviewInfo(port: ClientPort, record: ReviewRecord): ReviewInfo {
  let state: ReviewInfo['state'] = 'pending';
  if (record.result) {
    state =
      record.result.status === 'cancelled'
        ? 'cancelled'
        : record.result.status === 'rejected'
          ? 'rejected'
          : 'accepted';
  } else if (record.request) {
    // Undefined when gone from history while still settling.
    state = port.review(record.id)?.state ?? state;
  }
  return {
    review_id: record.id,
    title: record.title,
    state,
    created_at: record.createdAt,
    ...(record.result && { result: record.result }),
  };
}
