/**
 * A paired client's files are on its own host: their paths are shown as it gave them, never relative to
 * this machine's workspace folders, and labelled with the host ("on laptop").
 */
import type { ReviewItem } from '../../shared/app-api';
import { displayPath } from './review-model';

export function reviewPath(
  review: Pick<ReviewItem, 'remote'>,
  path: string,
  workspaceFolders: readonly string[],
): string {
  return review.remote ? `${path} on ${review.remote.clientName}` : displayPath(path, workspaceFolders);
}
