/** Which paths are agent-control files: marked high-risk in the window and never auto-applied. */
import { describe, expect, it } from 'vitest';
import { agentControlReason, isAgentControlFile } from '../../shared/agent-control-files';

describe('isAgentControlFile', () => {
  it.each([
    '/ws/.claude/settings.json',
    '/ws/.claude/settings.local.json',
    '/ws/.claude/hooks/pre.sh',
    '/ws/.codex/config.toml',
    '/ws/.gemini/settings.json',
    '/ws/.qwen/settings.json',
    '/ws/.copilot/mcp-config.json',
    '/ws/.cursor/rules/x.mdc',
    '/ws/.mcp.json',
    '/ws/AGENTS.md',
    '/ws/sub/CLAUDE.md',
    '/ws/GEMINI.md',
    '/ws/.git/config',
    '/ws/.git/hooks/pre-commit',
    '/ws/.git/modules/lib/hooks/post-checkout',
    'C:\\ws\\.Claude\\settings.json',
    '/ws/.GIT/CONFIG',
    'relative/.codex/hooks.json',
  ])('%s is one', (filePath) => {
    expect(isAgentControlFile(filePath)).toBe(true);
    expect(agentControlReason(filePath)).toMatch(/\w/);
  });

  it.each([
    '/ws/src/index.ts',
    '/ws/README.md',
    '/ws/claude.ts',
    '/ws/docs/agents.mdx',
    '/ws/.claude-notes/x.txt',
    '/ws/.gitconfig-example',
    '/ws/.git-hooks/pre-commit',
    '/ws/config',
    '/ws/hooks/pre-commit',
    '/ws/.github/workflows/ci.yml',
    '',
    '/',
  ])('%s is not', (filePath) => {
    expect(isAgentControlFile(filePath)).toBe(false);
  });

  it('says why, in words for the window', () => {
    expect(agentControlReason('/ws/.claude/settings.json')).toBe(
      "inside a .claude folder (an agent's settings or hooks)",
    );
    expect(agentControlReason('/ws/AGENTS.md')).toBe("AGENTS.md (an agent's instructions or tools)");
    expect(agentControlReason('/ws/.git/config')).toBe("git's config (it can name programs git runs)");
    expect(agentControlReason('/ws/.git/hooks/pre-push')).toBe('a git hook (git runs it)');
  });
});
