/**
 * The key map in effect: the defaults with the person's changes from settings (snapshot.settings.keyMap)
 * laid over them. Read at each key press, so a change in Settings applies at once.
 */
import { effectiveKeyMap, type KeyMap, type KeyMapChanges } from '../../shared/keymap';
import { useAppStore, type AppState } from '../state/store';

const NO_CHANGES: KeyMapChanges = {};
let last: { changes: KeyMapChanges; map: KeyMap } | null = null;

/** The same map object for the same changes, so components that show keys re-render only on a change. */
function keyMapFor(changes: KeyMapChanges): KeyMap {
  if (last?.changes !== changes) last = { changes, map: effectiveKeyMap(changes) };
  return last.map;
}

const selectKeyMap = (state: Pick<AppState, 'snapshot'>): KeyMap =>
  keyMapFor(state.snapshot?.settings?.keyMap ?? NO_CHANGES);

export const currentKeyMap = (): KeyMap => selectKeyMap(useAppStore.getState());

export const useKeyMap = (): KeyMap => useAppStore(selectKeyMap);
