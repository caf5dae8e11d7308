/** How connection prompts and trusted programs read (components/ConnectionPrompts, TrustedPrograms). */
import type { ConnectionRequest, TrustedProgram } from '../shared/app-api';
import { requesterFacts } from '../shared/connection-wording';

/**
 * "Clio (pid 4242, /home/me/code/app) wants to connect"; for a client the platform could not identify,
 * "Clio (identified by the name it gave) wants to connect".
 */
export function connectionPromptTitle(request: ConnectionRequest): string {
  return `${request.name} (${requesterFacts(request)}) wants to connect`;
}

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
