/**
 * The review keyboard map (DESIGN §5). Keys are read at the window in the capture phase so they also
 * work while the read-only diff editor has focus, and never while the person types into a text field.
 * Which keys wait after a review came up by itself is key-pause.ts.
 */
export type Command =
  | 'nextHunk'
  | 'prevHunk'
  | 'acceptHunk'
  | 'rejectHunk'
  | 'acceptAll'
  | 'rejectAll'
  | 'undo'
  | 'submit'
  | 'nextReview'
  | 'prevReview';

type KeyInfo = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** How the platform's command modifier is written in labels. */
export const MOD = isMac ? '⌘' : 'Ctrl';
const ALT = isMac ? '⌥' : 'Alt';

export const shortcutLabels: Record<Command, string> = {
  nextHunk: `J / ${ALT}+↓`,
  prevHunk: `K / ${ALT}+↑`,
  acceptHunk: `${MOD}+Y`,
  rejectHunk: `${MOD}+N`,
  acceptAll: `${MOD}+${ALT}+Y`,
  rejectAll: `${MOD}+${ALT}+N`,
  undo: `U / ${MOD}+Z`,
  submit: `${MOD}+Enter`,
  nextReview: ']',
  prevReview: '[',
};

export const commandDescriptions: Record<Command, string> = {
  nextHunk: 'Next hunk',
  prevHunk: 'Previous hunk',
  acceptHunk: 'Accept current hunk',
  rejectHunk: 'Reject current hunk',
  acceptAll: 'Accept all hunks',
  rejectAll: 'Reject all hunks',
  undo: 'Undo last decision',
  submit: 'Submit review',
  nextReview: 'Next review',
  prevReview: 'Previous review',
};

/** Maps a key event to a command, or null when the key is not ours. */
export function commandForKey(e: KeyInfo): Command | null {
  const mod = e.ctrlKey || e.metaKey;
  // Alt turns letters into symbols on macOS (Alt+Y is "¥"), so with Alt we read the physical key.
  const letter = e.altKey && e.code.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
  if (mod && !e.shiftKey) {
    if (e.altKey) {
      if (letter === 'y') return 'acceptAll';
      if (letter === 'n') return 'rejectAll';
      return null;
    }
    if (letter === 'y') return 'acceptHunk';
    if (letter === 'n') return 'rejectHunk';
    if (letter === 'z') return 'undo';
    if (e.key === 'Enter') return 'submit';
    return null;
  }
  if (mod) return null;
  if (e.altKey && !e.shiftKey) {
    if (e.key === 'ArrowDown') return 'nextHunk';
    if (e.key === 'ArrowUp') return 'prevHunk';
    return null;
  }
  if (e.altKey) return null;
  // Plain keys go by the character typed, so they follow the person's keyboard layout.
  switch (e.key) {
    case 'j':
      return 'nextHunk';
    case 'k':
      return 'prevHunk';
    case 'u':
      return 'undo';
    case ']':
      return 'nextReview';
    case '[':
      return 'prevReview';
    default:
      return null;
  }
}

/**
 * Monaco's own widgets that take text (find, rename, quick input) count as typing, and so does an editor
 * the person is editing the proposal in (DiffEditor marks it data-editable); a read-only editor surface does not.
 */
const MONACO_TEXT_WIDGETS =
  '.find-widget, .rename-box, .quick-input-widget, .monaco-inputbox, [data-editable="true"]';
const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'time',
]);

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('.monaco-editor')) return target.closest(MONACO_TEXT_WIDGETS) !== null;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(target.type);
  return target instanceof HTMLElement && target.isContentEditable;
}

/**
 * A window-level key handler, run before the page's own: keys the target keeps (`ignore`) and keys a
 * modal dialog owns (the reject reason) pass by; a key that maps to a command is taken and run.
 * Returns the function that removes it.
 */
export function installKeyHandler<C>(
  win: Window,
  commandFor: (e: KeyboardEvent) => C | null,
  run: (command: C) => void,
  ignore: (e: KeyboardEvent) => boolean,
): () => void {
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.isComposing || ignore(e)) return;
    if (win.document.querySelector('dialog[open]')) return;
    const command = commandFor(e);
    if (command === null) return;
    e.preventDefault();
    e.stopPropagation();
    run(command);
  };
  win.addEventListener('keydown', onKeyDown, { capture: true });
  return () => win.removeEventListener('keydown', onKeyDown, { capture: true });
}

/** Installs the review keys; text fields keep their keys. */
export function installKeyboard(win: Window, run: (command: Command) => void): () => void {
  return installKeyHandler(win, commandForKey, run, (e) => isTypingTarget(e.target));
}
