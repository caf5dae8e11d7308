/**
 * `request_approval`: an approval card in the queue (seed 001) — a command to run, a file to write or
 * delete, a tool to use. Answered at once with its id; the person's answer is pushed as `approval_result`
 * to whichever connection holds the session then (or on its next hello).
 */
import { randomUUID } from 'node:crypto';
import { approvalTitle, type ApprovalRequest } from '../../../../shared/app-api';
import type { ApprovalResponse, ApprovalResult, RequestPayload } from '../../../../shared/native-protocol';
import { boundedNote, boundedTitle } from '../../../core/review/review-labels';
import type { ReviewOutcome } from '../../../core/review/review-queue';
import type { ApprovalRecord } from '../sessions';
import { defineCommand, sessionOf } from './command';
import { stackOf } from '../../../../shared/error-message';

type ApprovalPayload = RequestPayload<'request_approval'>;

export const requestApproval = defineCommand('request_approval', (payload, context) => {
  const session = sessionOf(context, 'request_approval');
  const { sessions, log } = context.services;
  if (!session.agent) throw new Error(`native: session ${session.id} has no client entry`);
  const approval = approvalOf(payload);
  const { id, outcome, request } = session.agent.propose({
    title: payload.title ?? boundedTitle(approvalTitle(approval)),
    files: [],
    approval,
  });
  const record: ApprovalRecord = { id: `approval-${randomUUID()}`, request };
  session.approvals.set(record.id, record);
  context.respond({ request_id: record.id } satisfies ApprovalResponse);
  outcome
    .then((decided) =>
      sessions.deliver(session, record, {
        command: 'approval_result',
        payload: resultOf(record.id, decided),
      }),
    )
    .catch((error: unknown) => log(`native: failed to answer approval ${id}: ${stackOf(error)}`));
});

function approvalOf(payload: ApprovalPayload): ApprovalRequest {
  const args = payload.args === undefined ? undefined : argsText(payload.args);
  return {
    kind: payload.kind,
    ...(payload.tool_name !== undefined && { toolName: payload.tool_name }),
    ...(payload.command !== undefined && { command: payload.command }),
    ...(payload.cwd !== undefined && { cwd: payload.cwd }),
    ...(args !== undefined && { args }),
    ...(payload.reason?.trim() && { reason: payload.reason.trim() }),
    ...(payload.risk_level !== undefined && { riskLevel: payload.risk_level }),
  };
}

/** Arguments are shown, never interpreted: pretty JSON, held to the note limit. */
function argsText(args: unknown): string | undefined {
  try {
    const text = JSON.stringify(args, null, 2);
    return text === undefined ? undefined : boundedNote(text);
  } catch {
    return undefined;
  }
}

function resultOf(requestId: string, outcome: ReviewOutcome): ApprovalResult {
  switch (outcome.kind) {
    case 'accepted':
      return {
        request_id: requestId,
        approved: true,
        status: 'approved',
        ...(outcome.note !== undefined && { note: outcome.note }),
      };
    case 'rejected':
      return {
        request_id: requestId,
        approved: false,
        status: 'denied',
        ...(outcome.reason !== undefined && { note: outcome.reason }),
      };
    case 'superseded':
      return { request_id: requestId, approved: false, status: 'cancelled', note: 'superseded' };
    case 'cancelled':
      return { request_id: requestId, approved: false, status: 'cancelled', note: outcome.reason };
  }
}
