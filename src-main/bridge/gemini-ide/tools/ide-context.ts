/** `ide/contextUpdate`: what DiffTray has "open", as the CLI's context about the IDE. */
import type { ReviewItem } from '../../../../shared/app-api';

/** The CLI keeps the 10 most recent files; sending more only costs bytes. */
export const MAX_OPEN_FILES = 10;

export interface OpenFile {
  path: string;
  timestamp: number;
}

// A type alias, not an interface: it passes as notification params (an index-signature type).
export type IdeContext = {
  workspaceState: { openFiles: OpenFile[]; isTrusted: boolean };
};

/**
 * What DiffTray has "open": the files of every pending review, newest first, each with the time its
 * latest review arrived. None is marked active: DiffTray does not know which one the person looks at.
 */
export function ideContext(reviews: readonly ReviewItem[]): IdeContext {
  const latest = new Map<string, number>();
  for (const review of reviews) {
    if (review.state !== 'pending') continue;
    for (const file of review.files) {
      latest.set(file.path, Math.max(latest.get(file.path) ?? 0, review.createdAt));
    }
  }
  const openFiles = [...latest]
    .map(([filePath, timestamp]) => ({ path: filePath, timestamp }))
    .sort((a, b) => b.timestamp - a.timestamp)
    .slice(0, MAX_OPEN_FILES);
  return { workspaceState: { openFiles, isTrusted: true } };
}
