/** The window comes back where it was, never off-screen; the memory is a file in the data folder. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  readSavedBounds,
  restoredPlacement,
  WINDOW_BOUNDS_FILE,
  writeSavedBounds,
} from '../../../src-main/desktop/window-bounds';
import { makeTempDir } from '../../support/temp';

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('restoredPlacement', () => {
  it('keeps a position and size that are on a display', () => {
    expect(
      restoredPlacement({ x: 100, y: 100, width: 1000, height: 700, maximized: false }, [laptop]),
    ).toEqual({
      x: 100,
      y: 100,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('keeps a position on a second display while it is plugged in', () => {
    const saved = { x: 2000, y: 200, width: 1600, height: 1000, maximized: true };
    expect(restoredPlacement(saved, [laptop, rightMonitor])).toEqual(saved);
  });

  it('drops the position (the system centres it) when that display is gone', () => {
    const saved = { x: 2000, y: 200, width: 1600, height: 1000 };
    expect(restoredPlacement(saved, [laptop])).toEqual({ width: 1440, height: 875, maximized: false });
  });

  it('drops a position whose top edge is above the work area (the title bar could not be grabbed)', () => {
    expect(restoredPlacement({ x: 100, y: -500, width: 1000, height: 700 }, [laptop])).toEqual({
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('drops a position with only a sliver left on screen', () => {
    expect(restoredPlacement({ x: 1400, y: 100, width: 1000, height: 700 }, [laptop])).not.toHaveProperty(
      'x',
    );
    expect(restoredPlacement({ x: 1300, y: 100, width: 1000, height: 700 }, [laptop])).toHaveProperty(
      'x',
      1300,
    );
  });

  it('keeps the size within the minimum and the largest display', () => {
    expect(restoredPlacement({ x: 0, y: 25, width: 10, height: 10 }, [laptop])).toMatchObject(
      MIN_WINDOW_SIZE,
    );
    expect(restoredPlacement({ x: 0, y: 25, width: 9000, height: 9000 }, [laptop])).toMatchObject({
      width: 1440,
      height: 875,
    });
  });

  it.each([
    undefined,
    null,
    'garbage',
    {},
    { x: 1, y: 2, width: 'wide', height: 3 },
    { x: 1.5, y: 0, width: 800, height: 600 },
  ])('falls back to the default size for %j', (saved) => {
    expect(restoredPlacement(saved, [rightMonitor])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('fits the default size to a small display', () => {
    expect(restoredPlacement(undefined, [{ x: 0, y: 0, width: 1024, height: 700 }])).toEqual({
      width: 1024,
      height: 700,
      maximized: false,
    });
  });
});

describe('the bounds file', () => {
  let temp: { dir: string; cleanup: () => void } | undefined;
  afterEach(() => temp?.cleanup());

  it('is written (0600) and read back', () => {
    temp = makeTempDir('bounds');
    const dataDir = path.join(temp.dir, 'DiffTray');
    expect(readSavedBounds(dataDir)).toBeUndefined();
    writeSavedBounds(dataDir, { x: 10.4, y: 20.6, width: 900, height: 600 }, true);
    expect(readSavedBounds(dataDir)).toEqual({ x: 10, y: 21, width: 900, height: 600, maximized: true });
    if (process.platform !== 'win32')
      expect(statSync(path.join(dataDir, WINDOW_BOUNDS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('reads as nothing when it is not JSON', () => {
    temp = makeTempDir('bounds');
    writeFileSync(path.join(temp.dir, WINDOW_BOUNDS_FILE), '{"x": 1,');
    expect(readSavedBounds(temp.dir)).toBeUndefined();
    expect(readFileSync(path.join(temp.dir, WINDOW_BOUNDS_FILE), 'utf8')).toBe('{"x": 1,');
  });
});
