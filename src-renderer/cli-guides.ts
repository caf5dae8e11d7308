/**
 * How each supported CLI finds DiffTray, as the empty state tells a new user. Supporting another CLI
 * means adding an entry here.
 */
export interface CliStep {
  /** What to do, shown before the command: "From a workspace folder, run". */
  text: string;
  /** A command to type, shown as code with a Copy button. */
  command?: string;
}

export interface CliGuide {
  id: string;
  name: string;
  steps: CliStep[];
}

export const CLI_GUIDES: readonly CliGuide[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    steps: [
      { text: 'From a workspace folder, start it with', command: 'claude --ide' },
      { text: 'or, inside a running session, type', command: '/ide' },
    ],
  },
  {
    id: 'openclaude',
    name: 'OpenClaude',
    steps: [{ text: 'From a workspace folder, start openclaude and type', command: '/ide' }],
  },
  {
    id: 'nexus3',
    name: 'NEXUS3',
    steps: [
      {
        text: 'Connects on its own: it finds DiffTray through its lock file in ~/.nexus3/ide when started from a workspace folder.',
      },
    ],
  },
  {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    steps: [
      {
        text: 'From a workspace folder, start gemini and turn IDE mode on once with',
        command: '/ide enable',
      },
    ],
  },
  {
    id: 'qwen-code',
    name: 'Qwen Code',
    steps: [
      {
        text: 'Export the port named by the lock file in ~/.qwen/ide, then in qwen type',
        command: '/ide enable',
      },
    ],
  },
  {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI',
    steps: [
      {
        text: 'From a workspace folder, start copilot and pick DiffTray with',
        command: '/ide',
      },
    ],
  },
  {
    id: 'clio',
    name: 'Clio',
    steps: [
      {
        text: 'Finds DiffTray through ~/.clio/ide/bridge.json (or CLIO_IDE_PORT, which `difftray status` prints).',
      },
    ],
  },
  {
    id: 'difftray',
    name: 'Any script',
    steps: [
      {
        text: 'Review a patch, or changes an agent already wrote, with',
        command: 'git diff | difftray review',
      },
    ],
  },
];

/**
 * Agents that write files themselves have no way for DiffTray to stand in before the write: watch mode
 * reviews what they wrote, after the fact (the empty state's WatchGuide).
 */
export const WATCH_GUIDE = {
  id: 'watch',
  name: 'Agents that write files themselves',
  agents: ['Codex CLI', 'Aider', 'Cursor CLI', 'OpenCode', 'Goose', 'Crush', 'Amp'],
  command: 'difftray watch',
} as const;

/** The accessible name of a command's Copy button; the CLI's name keeps equal commands apart. */
export function copyLabel(command: string, cliName: string): string {
  return `Copy ${cliName} command: ${command}`;
}
