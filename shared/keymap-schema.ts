/** The `keyMap` setting's schema, for main's check of settings.json and of Settings' changes. */
import { z } from 'zod';
import {
  chordProblem,
  conflictText,
  effectiveKeyMap,
  keyMapConflicts,
  KEY_COMMANDS,
  MAX_CHORDS_PER_COMMAND,
  type KeyCommand,
  type KeyMapChanges,
} from './keymap';

const chordField = z
  .string()
  .max(40)
  .superRefine((text, ctx) => {
    const problem = chordProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `${text}: ${problem}` });
  });

/** The `keyMap` setting: the commands the person changed; a map with a chord used twice is refused. */
export const keyMapChangesSchema = z
  .object(
    Object.fromEntries(
      KEY_COMMANDS.map((command) => [command, z.array(chordField).max(MAX_CHORDS_PER_COMMAND).optional()]),
    ) as Record<KeyCommand, z.ZodOptional<z.ZodArray<typeof chordField>>>,
  )
  .strict()
  .superRefine((changes, ctx) => {
    for (const conflict of keyMapConflicts(effectiveKeyMap(changes))) {
      ctx.addIssue({ code: 'custom', message: conflictText(conflict) });
    }
  }) satisfies z.ZodType<KeyMapChanges>;
