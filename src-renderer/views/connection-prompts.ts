/** How connection prompts and trusted programs read (ConnectionPrompts, settings/TrustedPrograms). */
import type { ConnectionRequest, TrustedProgram } from '../../shared/app-api';
import { connectionPromptTitle } from '../../shared/connection-wording';
import { markInvisibles } from '../../shared/invisible-chars';

// The title is the desktop notification's too.
export { connectionPromptTitle };

/**
 * The program itself, as "Always allow this program" would remember it: the environment that changes
 * what it runs, its executable and its arguments (`NODE_OPTIONS=--require=x.js /usr/bin/node -r y.js
 * cli.js`); hidden characters marked (⟨U+202E⟩). Without a command line, the executable and script.
 */
export function programDescription(
  program: Pick<TrustedProgram, 'executable' | 'script' | 'argv' | 'environment'>,
): string | undefined {
  if (program.executable === undefined) return undefined;
  const words =
    program.argv === undefined
      ? [program.executable, ...(program.script === undefined ? [] : [program.script])]
      : [
          ...Object.entries(program.environment ?? {}).map(([name, value]) => `${name}=${shellWord(value)}`),
          program.executable,
          ...program.argv.slice(1).map(shellWord),
        ];
  return markInvisibles(words.join(' '));
}

/** An argument as a shell would need it: quoted when it is empty or holds a space or a quote. */
function shellWord(word: string): string {
  return word === '' || /[\s'"\\$`]/.test(word) ? JSON.stringify(word) : word;
}

/**
 * "Always" needs something to recognise the program by: all of its executable, command line and
 * environment read (main says so), or (where that is all there is) its name.
 */
export function canAllowAlways(request: ConnectionRequest): boolean {
  return request.canTrustAlways;
}

/** What a screen reader hears when a prompt appears. */
export function connectionPromptAnnouncement(request: ConnectionRequest): string {
  return `${connectionPromptTitle(request)}. Allow once, always allow, or deny it at the top of the window.`;
}

/** Said beside a program trusted by name only, and in a prompt that can only trust a name. */
export const NAME_ONLY_WARNING =
  'Identified by name only: any program on this computer can give this name. Weaker than trusting an executable.';
