/** Approval cards: a command, a file write or delete, or a tool use that an agent asks the person to allow. */

/** What an approval card asks (seed 001): run a command, write or delete a file, use a tool. */
export type ApprovalKind = 'command' | 'write_file' | 'delete_file' | 'tool';

export interface ApprovalRequest {
  kind: ApprovalKind;
  /** The agent's tool, e.g. "Bash". */
  toolName?: string;
  command?: string;
  /** The folder the command would run in. */
  cwd?: string;
  /** The tool's arguments as JSON text (bounded), for tools other than commands. */
  args?: string;
  /** Why the agent wants it (Bash's `description`, `difftray approve -m`). */
  reason?: string;
  riskLevel?: 'low' | 'medium' | 'high';
}

/**
 * An approval card's name, the same in the queue, History and its title: "Run command: npm test". Core
 * titles a card with it when the client gives no title of its own.
 */
export function approvalTitle(approval: ApprovalRequest): string {
  switch (approval.kind) {
    case 'command':
      return approval.command ? `Run command: ${approval.command}` : 'Run a command';
    case 'write_file':
      return approval.toolName ? `Write a file (${approval.toolName})` : 'Write a file';
    case 'delete_file':
      return approval.toolName ? `Delete a file (${approval.toolName})` : 'Delete a file';
    case 'tool':
      return approval.toolName ? `Use tool: ${approval.toolName}` : 'Use a tool';
  }
}
