/** A review key's command, apart from keyboard.ts so key-pause.ts can name it without the key map. */
import type { REVIEW_COMMANDS } from '../../shared/keymap';

export type Command = (typeof REVIEW_COMMANDS)[number];
