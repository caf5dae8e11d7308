/** Snapshots for the app-shell tests (queue groups, history, key pause, connections). */
import type { ClientInfo, ReviewState, ReviewSummary } from '../../../shared/app-api';
import type { FullState } from './full-state';

export function client(id: string, overrides: Partial<ClientInfo> = {}): ClientInfo {
  return {
    id,
    name: 'Claude Code',
    protocol: 'claude-ide',
    version: '2.1.0',
    connectedAt: 0,
    connected: true,
    ...overrides,
  };
}

export function review(
  id: string,
  createdAt: number,
  owner: ClientInfo,
  state: ReviewState = 'pending',
  extra: Partial<ReviewSummary> = {},
): ReviewSummary {
  return {
    id,
    client: owner,
    title: `${id}.ts`,
    createdAt,
    state,
    canUndo: false,
    files: [
      {
        path: `/w/${id}.ts`,
        isNewFile: false,
        binary: false,
        fileDecision: 'pending',
        contentRevision: 1,
        hunkCount: 1,
        hunks: [
          { index: 0, baseStart: 0, baseEnd: 1, proposedStart: 0, proposedEnd: 1, decision: 'pending' },
        ],
        disk: { state: 'unchanged' },
        conflicts: 0,
      },
    ],
    ...extra,
  };
}

export function snapshot(reviews: ReviewSummary[], clients: ClientInfo[] = []): FullState {
  return {
    version: 0,
    reviews,
    clients,
    pausedClients: [],
    workspaceFolders: ['/w'],
    watchedFolders: [],
    connectionRequests: [],
    trustedPrograms: [],
  };
}
