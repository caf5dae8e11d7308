/**
 * The "Review changes on disk" switch's call, through the real runtime's app API handler: one call at a
 * time per folder however often the person clicks, the folder busy meanwhile, and the outcome or main's
 * refusal on the status line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppApi, type AppApi, type AppApiMethod } from '../../../shared/app-api';
import { useAppStore } from '../../../src-renderer/state/store';
import { setFolderWatched, useWatchBusy } from '../../../src-renderer/views/watch-toggle';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime';
import { makeTempDir } from '../../support/temp';

let t: TestRuntime;
let api: AppApi;
/** The methods the renderer called, in order. */
let calls: AppApiMethod[];

beforeEach(async () => {
  t = await startTestRuntime();
  calls = [];
  api = createAppApi({
    call: (method, params) => {
      calls.push(method);
      return t.runtime.handler(method, params);
    },
    onState: () => () => {},
  });
  useAppStore.getState().applySnapshot(t.runtime.core.snapshot());
});

afterEach(async () => {
  await t.close();
});

const statusLine = () => useAppStore.getState().announcement?.text;

describe('setFolderWatched from the renderer', () => {
  it('a second click while the first call runs does not ask again; busy until the answer', async () => {
    const first = setFolderWatched(api, t.workspace, true);
    expect(useWatchBusy.getState().busy.has(t.workspace)).toBe(true);
    await setFolderWatched(api, t.workspace, true);
    await first;
    expect(calls).toEqual(['setFolderWatched']);
    expect(useWatchBusy.getState().busy.has(t.workspace)).toBe(false);
    expect(t.runtime.watch.watchedFolders).toEqual([t.workspace]);
    expect(statusLine()).toBe(`Reviewing changes on disk in ${t.workspace}`);

    await setFolderWatched(api, t.workspace, false);
    expect(t.runtime.watch.watchedFolders).toEqual([]);
    expect(statusLine()).toBe(`No longer reviewing changes on disk in ${t.workspace}`);
  });

  it("main's refusal is said on the status line, and the folder is no longer busy", async () => {
    const elsewhere = makeTempDir('outside');
    try {
      await setFolderWatched(api, elsewhere.dir, true);
      expect(statusLine()).toMatch(
        /^Could not turn on reviewing changes on disk in .+: .+ is outside the workspace folders$/,
      );
      expect(useWatchBusy.getState().busy.size).toBe(0);
      expect(t.runtime.watch.watchedFolders).toEqual([]);
    } finally {
      elsewhere.cleanup();
    }
  });
});
