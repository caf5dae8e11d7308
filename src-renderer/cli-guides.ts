/**
 * How each supported CLI finds DiffTray, as the empty state tells a new user. Supporting another CLI
 * (Gemini CLI, Qwen Code, Clio, `difftray review`) means adding an entry here.
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
    id: 'nexus3',
    name: 'NEXUS3',
    steps: [
      {
        text: 'Connects on its own: it finds DiffTray through its lock file in ~/.nexus3/ide when started from a workspace folder.',
      },
    ],
  },
];

/** The accessible name of a command's Copy button. */
export function copyLabel(command: string): string {
  return `Copy command: ${command}`;
}
