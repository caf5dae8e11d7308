/** How connection prompts and trusted programs read (components/ConnectionPrompts, TrustedPrograms). */
import type { ConnectionRequest, TrustedProgram } from '../shared/app-api';
import { connectionPromptTitle } from '../shared/connection-wording';

// The title is the desktop notification's too.
export { connectionPromptTitle };

/** The program itself, as "Always allow this program" would remember it. */
export function programDescription(
  program: Pick<TrustedProgram, 'executable' | 'script'>,
): string | undefined {
  if (program.executable === undefined) return undefined;
  return program.script === undefined ? program.executable : `${program.executable} ${program.script}`;
}

/** "Always" needs something to recognise the program by: its executable, or (where that is all) its name. */
export function canAllowAlways(request: ConnectionRequest): boolean {
  return request.identifiedBy === 'name' || request.executable !== undefined;
}

/** What a screen reader hears when a prompt appears. */
export function connectionPromptAnnouncement(request: ConnectionRequest): string {
  return `${connectionPromptTitle(request)}. Allow once, always allow, or deny it at the top of the window.`;
}

/** Said beside a program trusted by name only, and in a prompt that can only trust a name. */
export const NAME_ONLY_WARNING =
  'Identified by name only: any program on this computer can give this name. Weaker than trusting an executable.';
