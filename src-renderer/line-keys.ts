/**
 * Ctrl/Cmd+Shift+Y and Ctrl/Cmd+Shift+N: accept or reject the lines selected in the diff. Kept apart
 * from keyboard.ts's map because they must also work while the proposed side is being edited (where
 * keyboard.ts leaves keys to the editor): a selection is made in the editor, then decided from it.
 */
import { installKeyHandler, isTypingTarget } from './keyboard';

export type LineCommand = 'acceptLines' | 'rejectLines';

type KeyInfo = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

export function lineCommandForKey(e: KeyInfo): LineCommand | null {
  if (!(e.ctrlKey || e.metaKey) || !e.shiftKey || e.altKey) return null;
  // With Shift the key is upper case; the physical key is steadier.
  const letter = e.code.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
  if (letter === 'y') return 'acceptLines';
  if (letter === 'n') return 'rejectLines';
  return null;
}

export function installLineKeys(win: Window, run: (command: LineCommand) => void): () => void {
  // Text fields outside the diff keep their keys; inside the diff the selection is the point.
  return installKeyHandler(win, lineCommandForKey, run, (e) => {
    const target = e.target instanceof Element ? e.target : null;
    return isTypingTarget(target) && !target?.closest('.monaco-editor');
  });
}
