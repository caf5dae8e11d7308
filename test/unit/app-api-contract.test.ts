/**
 * The app API contract (shared/app-api/): every method written once, in one concern, under the name the
 * wire knows; main's real handler serves and validates each one; the window's client sends the
 * parameters as given and answers what main answered. The `@ts-expect-error` lines are checked by the
 * typecheck: a handler table missing a method, or answering the wrong type, does not compile.
 */
import { describe, expect, it } from 'vitest';
import {
  appApiConcerns,
  appApiContract,
  createAppApi,
  isAppApiMethod,
  type AppApiMethod,
  type AppSnapshot,
  type StateEvent,
} from '../../shared/app-api';
import { createAppApiHandler, type AppApiHandlers } from '../../src-main/core/app-api-handler';
import { AppCore } from '../../src-main/core/app-core';

/** The calls on the wire today; a rename here breaks every window and headless client. */
const WIRE_METHODS = [
  'addWorkspaceFolder',
  'agentHooksSetup',
  'agentHooksStatus',
  'answerConnectionRequest',
  'cancelPairing',
  'decideAll',
  'decideFile',
  'decideHunks',
  'decideLines',
  'disconnectClient',
  'editProposal',
  'focusReview',
  'getReviewContent',
  'getSnapshot',
  'pickFolder',
  'putComment',
  'rebase',
  'reject',
  'removeWorkspaceFolder',
  'revokePairedClient',
  'revokeTrustedProgram',
  'sendSelection',
  'setClientPaused',
  'setFolderWatched',
  'showingFile',
  'startPairing',
  'submit',
  'undo',
  'undoWrites',
  'updateSettings',
];

const methods = Object.keys(appApiContract).filter(isAppApiMethod);

describe('the app API contract', () => {
  it('holds exactly the methods the wire knows', () => {
    expect([...methods].sort()).toEqual(WIRE_METHODS);
  });

  it('writes each method in one concern only (a second entry would silently replace the first)', () => {
    const perConcern = Object.values(appApiConcerns).flatMap((calls) => Object.keys(calls));
    expect(perConcern).toHaveLength(new Set(perConcern).size);
    expect([...perConcern].sort()).toEqual(WIRE_METHODS);
  });

  it('has a parameter schema for every method, which main applies before its handler', async () => {
    const handler = createAppApiHandler(new AppCore(['/ws']));
    for (const method of methods) {
      await expect(handler(method, 'not an object'), method).rejects.toThrow(
        `Invalid parameters for ${method}`,
      );
    }
    await expect(handler('formatDisk', {})).rejects.toThrow('Unknown method: formatDisk');
    await expect(handler('toString', {})).rejects.toThrow('Unknown method: toString');
  });

  it("sends the window's parameters as given, and answers main's answer typed by the method", async () => {
    const sent: Array<{ method: AppApiMethod; params: unknown }> = [];
    const core = new AppCore(['/ws']);
    const handler = createAppApiHandler(core);
    const api = createAppApi({
      call: (method, params) => {
        sent.push({ method, params });
        return handler(method, params);
      },
      onState: (_listener: (event: StateEvent) => void) => () => {},
    });
    const snapshot: AppSnapshot = await api.call('getSnapshot', {});
    expect(snapshot).toEqual(core.snapshot());
    expect(await api.call('focusReview', { reviewId: null })).toBeNull();
    // A call that answers nothing answers null on the wire.
    expect(await api.call('showingFile', { reviewId: 'r', fileIndex: 0 })).toBeNull();
    expect(JSON.stringify(sent)).toBe(
      '[{"method":"getSnapshot","params":{}},{"method":"focusReview","params":{"reviewId":null}},' +
        '{"method":"showingFile","params":{"reviewId":"r","fileIndex":0}}]',
    );
    // @ts-expect-error decideAll takes a decision.
    await expect(api.call('decideAll', { reviewId: 'r' })).rejects.toThrow('Invalid parameters');
  });
});

/** Compile-time only: what the handler table's type refuses. */
export function refusedTables(table: AppApiHandlers): AppApiHandlers[] {
  const { pickFolder: _left, ...missingOne } = table;
  return [
    // @ts-expect-error every method needs its handler.
    missingOne,
    // @ts-expect-error startPairing answers a PairingStarted, not a string.
    { ...table, startPairing: async () => 'code' },
    // @ts-expect-error setFolderWatched's params have no `path`.
    { ...table, setFolderWatched: async (p) => [p.path] },
  ];
}
