/**
 * What DiffTray knows about one client protocol, in one typed record (one file per protocol beside this
 * one, gathered in index.ts). Every table about protocols (settings, Connections, the note box, Send to
 * agent, the empty state's guides, lint's adapter list) is derived from these records, so a protocol
 * with a field missing does not compile.
 */
import type { SetupAgent } from '../hook-setup/agent-hooks';

/** The protocols clients connect through; each has a descriptor in this folder. */
export type ClientProtocol =
  | 'claude-ide'
  | 'claude-hooks'
  | 'codex-hooks'
  | 'gemini-hooks'
  | 'copilot-hooks'
  | 'qwen-hooks'
  | 'nexus3-ide'
  | 'gemini-ide'
  | 'qwen-ide'
  | 'copilot-cli'
  | 'clio'
  | 'native'
  | 'watch'
  /** DiffTray itself: the merge review an undo puts up for files changed since (core/undo/undo-writes.ts). */
  | 'difftray';

/** One thing to do in a CLI's guide, shown before its command: "From a workspace folder, run". */
export interface CliStep {
  /** Text in `backticks` is shown as code. */
  text: string;
  /** A command to type, shown as code with a Copy button. */
  command?: string;
}

/** How one CLI that speaks the protocol finds DiffTray, as the empty state tells a new user. */
export interface CliGuide {
  id: string;
  name: string;
  steps: CliStep[];
  /** Few people use it: the empty state lists it under "More agents", folded. */
  folded?: true;
}

/** What the empty state says about a protocol. */
export type ProtocolGuide =
  /** One guide per CLI that speaks it, in the order the empty state lists them. */
  | { kind: 'clis'; clis: readonly CliGuide[] }
  /** Watch mode: agents that write files themselves, and the command that watches a folder. */
  | { kind: 'watch'; name: string; agents: readonly string[]; command: string }
  /** Nothing to set up: DiffTray starts it itself. */
  | { kind: 'none' };

/** Who writes the accepted text to disk. */
export type Writer =
  /** The CLI writes what DiffTray answers (the composed text). */
  | 'client'
  /** DiffTray writes it through core's one writer (core/disk/file-writer.ts). */
  | 'difftray';

/** What a protocol can carry; the UI and core ask these, never the protocol's name. */
export interface ProtocolCapabilities {
  /** Whether a decision on part of a proposal can be applied (else accept or reject it whole). */
  partialDecisions: boolean;
  /** Whether the person's note reaches the agent. */
  notes: boolean;
  /** Whether lines the person selects can be sent to the agent as context ("Send to agent"). */
  sendToAgent: boolean;
  /** Who writes an accepted proposal. */
  writer: Writer;
  /** Whether its reviews may be accepted at once by the `autoApply` setting (an agent's proposals). */
  autoApply: boolean;
  /** What a pause means for it, in one line, or null when its reviews cannot be paused. */
  pause: string | null;
}

export interface ProtocolDescriptor<P extends ClientProtocol = ClientProtocol> {
  id: P;
  /** Connections' line for a client: "Claude Code IDE (MCP over WebSocket)". */
  displayName: string;
  /** Settings' short word for how a client connects: "IDE connection". */
  shortLabel: string;
  /**
   * The protocol in a sentence about what it cannot carry ("Claude Code's IDE protocol can't..."), or
   * null to name the client instead.
   */
  spokenName: string | null;
  /**
   * Where its adapter lives, under src-main/: `bridge/<folder>` (lint keeps those folders apart), or in
   * core for what DiffTray reviews by itself.
   */
  adapter: `bridge/${string}` | `core/${string}`;
  /** How a client finds DiffTray (the discovery file, or what starts it). */
  discovery: string;
  capabilities: ProtocolCapabilities;
  /** The protocol whose setup the note box offers so notes can reach this agent, or null. */
  notesVia: ClientProtocol | null;
  /**
   * The agent `difftray setup` knows it by, the command that sets it up and the hook command and answer
   * codec it runs, when it has one.
   */
  setup: { agent: SetupAgent; command: string; hookCommand: string; codec: string } | null;
  guide: ProtocolGuide;
  /**
   * True when DiffTray itself puts its reviews up (no agent is behind its client): such a client is
   * not listed among the connected agents.
   */
  difftrayItself?: true;
}

/** Every protocol's descriptor, by id: a protocol missing here, or named twice, does not compile. */
export type ProtocolTable = { readonly [P in ClientProtocol]: ProtocolDescriptor<P> };
