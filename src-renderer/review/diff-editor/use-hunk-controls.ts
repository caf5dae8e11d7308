/**
 * The hunk zones and the controls on screen. Zones are rebuilt when main's hunk geometry changes or
 * main replaced a text (a new model version), not on decisions.
 */
import { useEffect, useState, type RefObject } from 'react';
import type { HunkView } from '../../../shared/app-api';
import type { Slot } from './hunk-zones';
import type { DiffSession } from './use-diff-session';
import type { ShownTexts } from './use-model-sync';

export interface HunkControls {
  /** The controls on screen, each with the node its HunkBar goes into. */
  slots: Slot[];
  /** The zone set whose zones Monaco has all reported at least once (controls placed). */
  placedKey: string;
}

/** Names a zone set: the model version and the version of the hunks' line ranges (GeometryVersion). */
export const zoneKey = (version: number, geometry: number): string => `${version}|${geometry}`;

export function useHunkControls(
  session: RefObject<DiffSession | null>,
  hunks: readonly HunkView[],
  geometry: number,
  shown: ShownTexts,
): HunkControls {
  // Whatever makes useModelSync replace a text: the model version is read after it ran.
  const { loaded, fileKey, baseText, proposedText, contentRevision, revision } = shown;
  const [slots, setSlots] = useState<Slot[]>([]);
  const [placedKey, setPlacedKey] = useState('');

  useEffect(() => {
    const current = session.current;
    if (!current || !loaded) return;
    const key = zoneKey(current.progress.version, geometry);
    current.zones.show(key, hunks, (placed) => {
      setSlots(placed);
      setPlacedKey(key);
    });
    // hunks is read for its line ranges only, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, fileKey, baseText, proposedText, contentRevision, revision, geometry]);

  return { slots, placedKey };
}
