/**
 * The protocols agents connect through, and what each can carry: a note to the agent, a decision on
 * part of a proposal, lines sent as context. The UI and core ask these, never the protocol's name.
 */

export type ClientProtocol =
  | 'claude-ide'
  | 'claude-hooks'
  | 'nexus3-ide'
  | 'gemini-ide'
  | 'qwen-ide'
  | 'copilot-cli'
  | 'clio'
  | 'native'
  | 'watch'
  /** DiffTray itself: the merge review an undo puts up for files changed since (core/undo-writes.ts). */
  | 'difftray';

/**
 * Whether a protocol can carry the person's note to the agent (docs/REVIEWING.md): Claude Code's hooks, Clio
 * and the native protocol can; Claude Code's and Gemini's IDE protocols have no place for one.
 */
export function protocolHearsNotes(protocol: ClientProtocol): boolean {
  return protocol === 'claude-hooks' || protocol === 'clio' || protocol === 'native';
}

/**
 * Whether a protocol can apply what the person composed from part of a proposal. Copilot CLI's `/ide`
 * cannot: after `SAVED` the CLI writes its own proposal whole, so its reviews are accepted or rejected
 * whole (bridge/copilot-cli/tools/open-diff.ts).
 */
export function protocolAppliesPartialDecisions(protocol: ClientProtocol): boolean {
  return protocol !== 'copilot-cli';
}

/**
 * Whether a protocol can take lines a person sends to the agent as context ("Send to agent"): Claude
 * Code's and NEXUS3's IDE protocol, Gemini CLI's and Qwen Code's, Copilot CLI's, and the native one. A
 * Claude Code hook lives for one edit; Clio's messages and watch mode have no such message.
 */
export function protocolTakesSelections(protocol: ClientProtocol): boolean {
  return (
    protocol === 'claude-ide' ||
    protocol === 'nexus3-ide' ||
    protocol === 'gemini-ide' ||
    protocol === 'qwen-ide' ||
    protocol === 'copilot-cli' ||
    protocol === 'native'
  );
}

/** Which text of a review's file lines are chosen in: what the file held, or the agent's proposal. */
export type SelectionSide = 'base' | 'proposed';

/** What a pause is remembered by: a program, not one connection (a hook connects once per edit). */
export function clientPauseKey(client: { protocol: ClientProtocol; name: string }): string {
  return `${client.protocol}:${client.name}`;
}
