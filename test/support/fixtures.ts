/** Texts the tests propose edits with. */

/** The given lines as a text: each ends with a newline. */
export const lines = (...items: string[]): string => items.join('\n') + '\n';

/** Nine numbers; the proposal changes lines 1, 5 and 9: three hunks. */
export const NUMBERS = {
  base: lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'),
  proposed: lines('ONE', 'two', 'three', 'four', 'FIVE', 'six', 'seven', 'eight', 'NINE'),
  /** Hunks 1 and 3 accepted, hunk 2 rejected. */
  composed: lines('ONE', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'NINE'),
} as const;
