/**
 * Agent-control files: files that decide what an agent may do or runs on its own (its settings, hooks,
 * MCP servers, standing instructions) and git's own config and hooks. An agent that edits one of them can
 * widen its own permissions or have code run later, so such an edit is marked high-risk in the review and
 * never auto-applied (core/review/review-queue.ts), whatever the settings say.
 *
 * Judged on the path's text alone (either separator, any case, since macOS and Windows folders ignore
 * case), so it gives the same answer in main, in the window and for a paired host's path.
 */

/** Folders of agents' settings, hooks, commands and MCP servers: everything under them counts. */
const AGENT_FOLDERS = new Set(['.claude', '.codex', '.gemini', '.qwen', '.copilot', '.cursor']);

/** Standing instructions and MCP server lists, wherever they are. */
const AGENT_FILES = new Set([
  '.mcp.json',
  'agents.md',
  'agents.override.md',
  'claude.md',
  'claude.local.md',
  'gemini.md',
  'qwen.md',
]);

/** What the mark says, in the window and in History. */
export const AGENT_CONTROL_LABEL = 'High-risk: agent control file';

/**
 * Why `filePath` is an agent-control file ("a .claude folder", "AGENTS.md", "git's config"...), or
 * undefined when it is not one.
 */
export function agentControlReason(filePath: string): string | undefined {
  const shown = filePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  const parts = shown.map((part) => part.toLowerCase());
  const name = parts[parts.length - 1];
  if (name === undefined) return undefined;
  const folders = parts.slice(0, -1);
  const agentFolder = folders.find((folder) => AGENT_FOLDERS.has(folder));
  if (agentFolder !== undefined) return `inside a ${agentFolder} folder (an agent's settings or hooks)`;
  if (AGENT_FILES.has(name)) return `${shown[shown.length - 1]!} (an agent's instructions or tools)`;
  const gitAt = folders.lastIndexOf('.git');
  if (gitAt !== -1) {
    // Also a submodule's or worktree's (.git/modules/<name>/config, .../hooks/).
    if (name === 'config' || name === 'config.worktree')
      return "git's config (it can name programs git runs)";
    if (folders.slice(gitAt + 1).includes('hooks')) return 'a git hook (git runs it)';
  }
  return undefined;
}

/** Whether `filePath` is an agent-control file (agentControlReason). */
export function isAgentControlFile(filePath: string): boolean {
  return agentControlReason(filePath) !== undefined;
}
