/**
 * "Send to agent" over Claude Code's IDE protocol, with the official MCP SDK client as Claude Code: lines
 * of a review's file sent through the app API arrive as `selection_changed` and then `at_mentioned`,
 * both with 0-based lines (Claude Code adds one before showing them), on the review's own connection.
 */
import type { JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectClaudeClient, type ClaudeTestClient } from '../support/claude-client';
import { useClaudeSession } from '../support/claude-session';
import { NUMBERS } from '../support/fixtures';
import { until, waitForReview } from '../support/wait';

const session = useClaudeSession('notes.txt', NUMBERS.base);
const api = () => session.t.runtime.handler;

type Notification = Pick<JSONRPCNotification, 'method' | 'params'>;

/** Every notification the client receives from DiffTray, in order. */
function recordNotifications(claude: ClaudeTestClient): Notification[] {
  const received: Notification[] = [];
  claude.client.fallbackNotificationHandler = async ({ method, params }) => {
    received.push({ method, params });
  };
  return received;
}

async function reviewFrom(claude: ClaudeTestClient, tabName: string) {
  // Left unanswered; a client that closes sees it fail.
  claude.openDiff(session.file, NUMBERS.proposed, tabName).catch(() => {});
  return waitForReview(session.t.runtime.core, (r) => r.state === 'pending' && r.title === 'notes.txt');
}

describe('Send to agent over the Claude Code IDE protocol', () => {
  it('lines of the proposal arrive as selection_changed, then at_mentioned, with 0-based lines', async () => {
    const { claude, file } = session;
    const received = recordNotifications(claude);
    const review = await reviewFrom(claude, 'notes.txt (edit)');

    await api()('sendSelection', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'proposed',
      startLine: 3,
      endLine: 4,
    });

    await until(() => (received.length >= 2 ? true : undefined), 'two notifications');
    expect(received).toEqual([
      {
        method: 'selection_changed',
        params: {
          text: 'four\nFIVE',
          filePath: file,
          fileUrl: pathToFileURL(file).href,
          selection: { start: { line: 3, character: 0 }, end: { line: 4, character: 4 }, isEmpty: false },
        },
      },
      { method: 'at_mentioned', params: { filePath: file, lineStart: 3, lineEnd: 4 } },
    ]);
  });

  it('one line of what the file held: the base side, lines 0..0', async () => {
    const { claude, file } = session;
    const received = recordNotifications(claude);
    const review = await reviewFrom(claude, 'tab');

    await api()('sendSelection', {
      reviewId: review.id,
      fileIndex: 0,
      side: 'base',
      startLine: 0,
      endLine: 0,
    });

    await until(() => (received.length >= 2 ? true : undefined), 'two notifications');
    expect(received[0]?.params).toMatchObject({
      text: 'one',
      selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
    });
    expect(received[1]).toEqual({
      method: 'at_mentioned',
      params: { filePath: file, lineStart: 0, lineEnd: 0 },
    });
  });

  it('lines of a review reach only the client that asked for it, not another connected one', async () => {
    const { t, claude } = session;
    const other = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));
    try {
      const receivedByOwner = recordNotifications(claude);
      const receivedByOther = recordNotifications(other);
      const review = await reviewFrom(claude, 'mine');

      await api()('sendSelection', {
        reviewId: review.id,
        fileIndex: 0,
        side: 'proposed',
        startLine: 0,
        endLine: 8,
      });

      await until(() => (receivedByOwner.length >= 2 ? true : undefined), 'the owner notified');
      // The send had finished before this request: anything sent to `other` would be ahead of its answer.
      await other.client.listTools();
      expect(receivedByOther).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('once the client has gone, a send is refused, saying why', async () => {
    const { t, claude } = session;
    const review = await reviewFrom(claude, 'gone');
    await claude.close();
    await waitForReview(t.runtime.core, (r) => r.id === review.id && r.state !== 'pending');

    await expect(
      api()('sendSelection', {
        reviewId: review.id,
        fileIndex: 0,
        side: 'proposed',
        startLine: 0,
        endLine: 0,
      }),
    ).rejects.toThrow(/no longer/);
  });
});
