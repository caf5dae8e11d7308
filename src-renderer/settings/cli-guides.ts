/**
 * How each supported CLI finds DiffTray, as the empty state tells a new user: taken from each protocol's
 * descriptor (shared/protocols/), in their order. Supporting another CLI means a guide in its descriptor.
 */
import { AGENT_LABELS, type SetupAgent } from '../../shared/hook-setup/agent-hooks';
import { ALL_PROTOCOLS, PROTOCOL_DESCRIPTORS, type CliGuide } from '../../shared/protocols';

export type { CliGuide, CliStep } from '../../shared/protocols';

export const CLI_GUIDES: readonly CliGuide[] = ALL_PROTOCOLS.flatMap((protocol) =>
  protocol.guide.kind === 'clis' ? protocol.guide.clis : [],
);

/** One piece of a guide's text: plain, or code (written in `backticks`). */
export interface TextSpan {
  text: string;
  code: boolean;
}

/** A guide's text in pieces: what is in `backticks` is code. A lone backtick is kept as text. */
export function codeSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const pattern = /`([^`]+)`/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) spans.push({ text: text.slice(at, match.index), code: false });
    spans.push({ text: match[1]!, code: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) spans.push({ text: text.slice(at), code: false });
  return spans;
}

/**
 * Agents that write files themselves have no way for DiffTray to stand in before the write: watch mode
 * reviews what they wrote, after the fact (the empty state's WatchGuide).
 */
const watch = PROTOCOL_DESCRIPTORS.watch;
export const WATCH_GUIDE = { id: watch.id, ...watch.guide };

/** The accessible name of a command's Copy button; the CLI's name keeps equal commands apart. */
export function copyLabel(command: string, cliName: string): string {
  return `Copy ${cliName} command: ${command}`;
}

/** An agent whose hooks DiffTray installs: reviewed before it writes, from any terminal. */
export interface HookGuide {
  agent: SetupAgent;
  name: string;
  /** `difftray setup <agent>`, from its descriptor. */
  command: string;
}

/** Every hook agent, from the descriptors with a setup command, in their order. */
export const HOOK_GUIDES: readonly HookGuide[] = ALL_PROTOCOLS.flatMap((protocol) =>
  protocol.setup
    ? [
        {
          agent: protocol.setup.agent,
          name: AGENT_LABELS[protocol.setup.agent],
          command: protocol.setup.command,
        },
      ]
    : [],
);
