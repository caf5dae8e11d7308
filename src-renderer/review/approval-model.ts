/** Pure views of an approval card (seed 001): a command or tool the agent asks to run, allowed or denied. */
import { approvalTitle } from '../../shared/app-api/approvals';
import type { ApprovalRequest, ReviewItem } from '../../shared/app-api';

/** The card's one-line name in the queue and its heading: the name core titles it with. */
export const approvalLabel = approvalTitle;

/** A small glyph for the queue, so a card stands apart from file reviews at a glance. */
export function approvalIcon(approval: ApprovalRequest): string {
  return approval.kind === 'command' ? '>_' : approval.kind === 'tool' ? '⚙' : '⚠';
}

/** The tool's arguments as indented JSON when they parse, else as they came. */
export function approvalArgsText(args: string | undefined): string | undefined {
  if (args === undefined || args.trim() === '') return undefined;
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

export const riskLabels: Record<NonNullable<ApprovalRequest['riskLevel']>, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

/** The outcome of an ended card in the words of its buttons: "Allowed", "Denied: not now". */
export function approvalEndedText(review: ReviewItem): string {
  const reason = review.reason?.trim();
  switch (review.state) {
    case 'accepted':
      return 'Allowed.';
    case 'rejected':
      return reason ? `Denied: ${reason}` : 'Denied.';
    case 'cancelled':
      return reason ? `Cancelled: ${reason} — nothing was sent.` : 'Cancelled — nothing was sent.';
    case 'superseded':
      return 'Superseded by a newer request.';
    case 'pending':
      return '';
  }
}

/** History's state label for a card. */
export function approvalStateLabel(review: ReviewItem): string {
  if (review.state === 'accepted') return 'Allowed';
  if (review.state === 'rejected') return 'Denied';
  return review.state === 'cancelled' ? 'Cancelled' : 'Superseded';
}
