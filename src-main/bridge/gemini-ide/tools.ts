/**
 * The two tools of the Gemini CLI companion protocol (Qwen Code uses the same), answered as the VS Code
 * companion (packages/vscode-ide-companion) answers them:
 *
 * - `openDiff {filePath, newContent}` returns at once with empty content; the person's decision reaches
 *   the CLI later as `ide/diffAccepted {filePath, content}` or `ide/diffRejected {filePath}`. The CLI
 *   writes the file with exactly `content`, so per-hunk decisions and edits reach disk through it.
 * - `closeDiff {filePath, suppressNotification?}` closes the review (the person answered in the terminal)
 *   and returns text JSON `{"content": <the proposed text as edited so far> | null}`, announcing
 *   `ide/diffClosed` unless told not to.
 *
 * IdeClient keys its waiting diffs by the exact `filePath` string it sent, so notifications carry that
 * string back unchanged; reviews are matched by real path.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { z } from 'zod';
import type { ClientInfo, ReviewSummary } from '../../../shared/app-api';
import { fileTextField, pathField } from '../../../shared/field-limits';
import type { AppCore } from '../../core/app-core';
import type { DiskSnapshot } from '../../core/disk-snapshot';
import { readProposalBase } from '../../core/proposal-base';
import type { ReviewOutcome } from '../../core/review-queue';
import { resolveInsideWorkspace, resolveRealPath } from '../../core/workspace-paths';
import { displayPath } from '../display-path';

export const GEMINI_TOOL_NAMES = ['openDiff', 'closeDiff'] as const;

export const DIFF_ACCEPTED = 'ide/diffAccepted';
export const DIFF_REJECTED = 'ide/diffRejected';
export const DIFF_CLOSED = 'ide/diffClosed';
export const CONTEXT_UPDATE = 'ide/contextUpdate';

/** The CLI keeps the 10 most recent files; sending more only costs bytes. */
export const MAX_OPEN_FILES = 10;

export const CLOSED_BY_CLIENT = 'closed by the client';

export interface GeminiToolContext {
  readonly core: AppCore;
  /** The connected client; read only from tool calls, which come after the session is initialized. */
  readonly client: ClientInfo;
  /** Sends a notification to this client (queued until its event stream is open). */
  notify(method: string, params: Record<string, unknown>): void;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function toolError(message: string): CallToolResult {
  return { ...text(message), isError: true };
}

export function registerGeminiTools(server: McpServer, context: GeminiToolContext): void {
  const { core } = context;
  const { queue } = core;
  const notify = (method: string, params: Record<string, unknown>) => context.notify(method, params);
  /** Pending reviews of this client by real path, with the path string the client used. */
  const open = new Map<string, { reviewId: string; clientPath: string }>();

  const settle = (realPath: string, reviewId: string, clientPath: string, outcome: ReviewOutcome) => {
    if (open.get(realPath)?.reviewId === reviewId) open.delete(realPath);
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
  };

  server.registerTool(
    'openDiff',
    {
      description:
        '(IDE Tool) Open a diff view to create or modify a file. Returns a notification once the diff has been accepted or rejected.',
      inputSchema: {
        filePath: pathField().describe('The absolute path to the file to be diffed.'),
        newContent: fileTextField().describe('The proposed new content for the file.'),
      },
    },
    async ({ filePath, newContent }) => {
      let realPath: string;
      let base: DiskSnapshot;
      try {
        realPath = resolveInsideWorkspace(filePath, core.workspaceFolders);
        base = await readProposalBase(realPath, core.workspaceFolders);
      } catch (error) {
        return toolError((error as Error).message);
      }
      const { id, outcome } = queue.add({
        client: context.client,
        title: displayPath(realPath, core.workspaceFolders),
        // A second openDiff for the same file supersedes the first, as a new diff replaces the old one.
        tabName: realPath,
        files: [{ path: realPath, base, proposedText: newContent }],
      });
      open.set(realPath, { reviewId: id, clientPath: filePath });
      void outcome.then((result) => settle(realPath, id, filePath, result));
      return { content: [] };
    },
  );

  server.registerTool(
    'closeDiff',
    {
      description: '(IDE Tool) Close an open diff view for a specific file.',
      inputSchema: {
        filePath: pathField().describe('The absolute path to the file to be diffed.'),
        suppressNotification: z.boolean().optional(),
      },
    },
    async ({ filePath, suppressNotification }) => {
      const realPath = path.isAbsolute(filePath) ? resolveRealPath(filePath) : undefined;
      const entry = realPath === undefined ? undefined : open.get(realPath);
      let content: string | null = null;
      if (entry && isPending(core, entry.reviewId)) {
        const proposed = queue.contents(entry.reviewId)[0]?.proposedText ?? '';
        content = proposed;
        queue.cancelWhere(
          (request) => request.client.id === context.client.id && request.tabName === realPath,
          CLOSED_BY_CLIENT,
        );
        if (!suppressNotification) notify(DIFF_CLOSED, { filePath, content: proposed });
      }
      return text(JSON.stringify({ content }));
    },
  );
}

function isPending(core: AppCore, reviewId: string): boolean {
  return core.queue.find(reviewId)?.state === 'pending';
}

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
export function ideContext(reviews: readonly ReviewSummary[]): IdeContext {
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
