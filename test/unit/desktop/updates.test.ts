/** Whether DiffTray looks for updates: only a packaged app with a release feed, unless turned off. */
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  UPDATE_CHECK_INTERVAL_MS,
  updateFeedFile,
  updatePolicy,
  updateReadyNotice,
} from '../../../src-main/desktop/updates';
import { makeTempDir } from '../../support/temp';

describe('updatePolicy', () => {
  const released = { packaged: true, feedConfigured: true, env: {} };

  it('looks on start and every few hours in a packaged app with a release feed', () => {
    expect(updatePolicy(released)).toEqual({ check: true, everyMs: UPDATE_CHECK_INTERVAL_MS });
    expect(UPDATE_CHECK_INTERVAL_MS).toBeGreaterThanOrEqual(60 * 60 * 1000);
  });

  it('never looks without a release feed: the default build has none', () => {
    expect(updatePolicy({ ...released, feedConfigured: false })).toEqual({
      check: false,
      reason: 'no release feed configured',
    });
  });

  it('never looks in a development run', () => {
    expect(updatePolicy({ ...released, packaged: false })).toMatchObject({ check: false });
  });

  it('is turned off with DIFFTRAY_NO_UPDATES=1, and only with 1', () => {
    expect(updatePolicy({ ...released, env: { DIFFTRAY_NO_UPDATES: '1' } })).toEqual({
      check: false,
      reason: 'DIFFTRAY_NO_UPDATES=1',
    });
    expect(updatePolicy({ ...released, env: { DIFFTRAY_NO_UPDATES: '0' } })).toMatchObject({ check: true });
  });

  it('tells the person the version and where to restart, never restarting by itself', () => {
    expect(updateReadyNotice('1.2.0')).toEqual({
      title: 'DiffTray 1.2.0 is ready',
      body: 'Choose "Restart to update" in the tray menu when it suits you.',
    });
  });
});

describe('updateFeedFile', () => {
  let temp: { dir: string; cleanup: () => void } | undefined;
  afterEach(() => temp?.cleanup());

  it('is the app-update.yml electron-builder writes beside app.asar when `publish` is set', () => {
    temp = makeTempDir('update-feed');
    const resources = path.join(temp.dir, 'resources');
    mkdirSync(resources);
    expect(existsSync(updateFeedFile(resources))).toBe(false);
    writeFileSync(path.join(resources, 'app-update.yml'), 'provider: github\nowner: o\nrepo: r\n');
    expect(existsSync(updateFeedFile(resources))).toBe(true);
  });
});
