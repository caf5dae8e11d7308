/**
 * The window comes back where it was left, but never off-screen: a remembered position is kept only if
 * enough of the window's top edge (where it is dragged by) lands in a display's work area now — a
 * display may have been unplugged since. The memory is a small JSON file in the app's data folder.
 */
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from '../bridge/lock-files';
import { readRegularFile } from '../core/disk/regular-file';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPlacement {
  width: number;
  height: number;
  /** Absent: let the system centre the window. */
  x?: number;
  y?: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const;
export const MIN_WINDOW_SIZE = { width: 640, height: 400 } as const;
/** How much of the top edge must be on a display for the remembered position to be kept. */
const GRAB_STRIP = { width: 100, height: 30 } as const;
export const WINDOW_BOUNDS_FILE = 'window-bounds.json';

const coordinate = z.number().int().min(-1_000_000).max(1_000_000);
const savedBoundsSchema = z.object({
  x: coordinate,
  y: coordinate,
  width: coordinate,
  height: coordinate,
  maximized: z.boolean().optional(),
});

/**
 * Where to open the window, from what was saved (anything: a file may be hand-edited or truncated) and
 * the displays' work areas now.
 */
export function restoredPlacement(saved: unknown, workAreas: readonly Rect[]): WindowPlacement {
  const parsed = savedBoundsSchema.safeParse(saved);
  const largest = workAreas.reduce<Rect | undefined>(
    (best, area) => (!best || area.width * area.height > best.width * best.height ? area : best),
    undefined,
  );
  const fit = (size: { width: number; height: number }) => ({
    width: clamp(size.width, MIN_WINDOW_SIZE.width, largest?.width ?? size.width),
    height: clamp(size.height, MIN_WINDOW_SIZE.height, largest?.height ?? size.height),
  });
  if (!parsed.success) return { ...fit(DEFAULT_WINDOW_SIZE), maximized: false };
  const { x, y, maximized = false } = parsed.data;
  const size = fit(parsed.data);
  const grabbable = workAreas.some((area) =>
    overlap(area, { x, y, width: size.width, height: GRAB_STRIP.height }),
  );
  return grabbable ? { ...size, x, y, maximized } : { ...size, maximized };
}

/** Whether the window's top strip and the area share at least the grab strip. */
function overlap(area: Rect, top: Rect): boolean {
  const width = Math.min(area.x + area.width, top.x + top.width) - Math.max(area.x, top.x);
  const height = Math.min(area.y + area.height, top.y + top.height) - Math.max(area.y, top.y);
  return width >= Math.min(GRAB_STRIP.width, top.width) && height >= GRAB_STRIP.height;
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)));
}

/** The saved bounds, or undefined when there are none or they cannot be read (the defaults then apply). */
export function readSavedBounds(dataDir: string): unknown {
  try {
    return JSON.parse(readRegularFile(path.join(dataDir, WINDOW_BOUNDS_FILE)));
  } catch {
    return undefined;
  }
}

/** Saves the window's normal (not maximized) bounds; written whole through a rename, never half. */
export function writeSavedBounds(dataDir: string, bounds: Rect, maximized: boolean): void {
  const rounded = {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized,
  };
  // The app's data folder keeps the mode Electron gave it.
  writeFileAtomically(path.join(dataDir, WINDOW_BOUNDS_FILE), `${JSON.stringify(rounded)}\n`, 0o600, {
    keepFolderMode: true,
  });
}
