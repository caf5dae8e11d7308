/** `get_review`, `list_reviews` and `cancel_review`: the reviews proposed in this session. */
import { ErrorCode, type ReviewInfo } from '../../../../shared/native-protocol';
import type { AppCore } from '../../../core/app-core';
import type { ReviewRecord, Session } from '../sessions';
import { defineCommand, RequestError, sessionOf } from './command';

export const getReview = defineCommand('get_review', (payload, context) => {
  const record = recordOf(sessionOf(context, 'get_review'), payload.review_id);
  context.respond(reviewInfo(context.services.core, record));
});

export const listReviews = defineCommand('list_reviews', (_payload, context) => {
  const { core } = context.services;
  const records = [...sessionOf(context, 'list_reviews').reviews.values()];
  context.respond({ reviews: records.map((record) => reviewInfo(core, record)) });
});

export const cancelReview = defineCommand('cancel_review', (payload, context) => {
  const record = recordOf(sessionOf(context, 'cancel_review'), payload.review_id);
  const request = record.request;
  if (!request || record.result) {
    context.respond({ cancelled: false });
    return;
  }
  const count = context.services.core.queue.cancelWhere(
    (candidate) => candidate === request,
    payload.reason?.trim() || 'cancelled by the client',
  );
  context.respond({ cancelled: count > 0 });
});

function recordOf(session: Session, reviewId: string): ReviewRecord {
  const record = session.reviews.get(reviewId);
  if (!record) throw new RequestError(ErrorCode.INVALID_PAYLOAD, `No review ${reviewId} in this session`);
  return record;
}

function reviewInfo(core: AppCore, record: ReviewRecord): ReviewInfo {
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
    state = core.queue.find(record.id)?.state ?? state;
  }
  return {
    review_id: record.id,
    title: record.title,
    state,
    created_at: record.createdAt,
    ...(record.result && { result: record.result }),
  };
}
