/**
 * The pending diffs of one session, by real path, with the path string the client used: IdeClient keys
 * its waiting diffs by the exact `filePath` it sent, so notifications carry that string back unchanged.
 * When the person decides, the outcome reaches the CLI as `ide/diffAccepted {filePath, content}` (it
 * writes exactly `content`) or `ide/diffRejected {filePath}`.
 */
import type { ReviewOutcome } from '../../../core/review/review-queue';
import type { GeminiToolContext } from './session-context';
import { DIFF_ACCEPTED, DIFF_REJECTED } from './notifications';

export interface OpenDiff {
  reviewId: string;
  clientPath: string;
}

export class OpenDiffs {
  private readonly byRealPath = new Map<string, OpenDiff>();

  constructor(private readonly session: GeminiToolContext) {}

  get(realPath: string): OpenDiff | undefined {
    return this.byRealPath.get(realPath);
  }

  /** Holds the diff until its review ends, then tells the CLI how it ended. */
  track(realPath: string, diff: OpenDiff, outcome: Promise<ReviewOutcome>): void {
    this.byRealPath.set(realPath, diff);
    void outcome.then((result) => this.settle(realPath, diff, result));
  }

  private settle(realPath: string, { reviewId, clientPath }: OpenDiff, outcome: ReviewOutcome): void {
    if (this.byRealPath.get(realPath)?.reviewId === reviewId) this.byRealPath.delete(realPath);
    const notify = (method: string, params: Record<string, unknown>) => this.session.notify(method, params);
    switch (outcome.kind) {
      case 'accepted': {
        const file = outcome.files[0];
        if (file?.changed) notify(DIFF_ACCEPTED, { filePath: clientPath, content: file.finalText });
        else notify(DIFF_REJECTED, { filePath: clientPath });
        return;
      }
      case 'rejected':
        notify(DIFF_REJECTED, { filePath: clientPath });
        return;
      // Superseded: the newer openDiff for the same file is the one the CLI waits for, under the same
      // filePath, so a rejection here would answer it. Cancelled: closeDiff answered, or nobody is left.
      case 'superseded':
      case 'cancelled':
        return;
    }
  }
}
