/** The plain tables the hook's first step reads agree with the codecs that do the work. */
import { describe, expect, it } from 'vitest';
import { EDIT_TOOL_NAMES } from '../../../shared/claude-code/edit-replay';
import { CODEX_PATCH_TOOL, CODEX_SHELL_TOOL } from '../../../shared/hooks/codex';
import { HOOK_CODECS } from '../../../shared/hooks/codecs';
import { HOOK_TABLES } from '../../../shared/hooks/hook-tables';

describe('hook tables', () => {
  it.each(Object.entries(HOOK_CODECS))("%s: the table's edit tools are the codec's", (agent, codec) => {
    const table = HOOK_TABLES[agent as keyof typeof HOOK_CODECS];
    expect(codec.tools.map((tool) => tool.name)).toEqual(table.editTools);
    expect(codec.noteVia === 'after').toBe(table.afterEvent !== null);
  });

  it("Codex's and Claude Code's rows name the tools their runners review", () => {
    expect(HOOK_TABLES.codex.editTools).toEqual([CODEX_PATCH_TOOL]);
    expect(HOOK_TABLES.codex.commandTools).toEqual([CODEX_SHELL_TOOL]);
    expect(HOOK_TABLES['claude-code'].editTools).toEqual(EDIT_TOOL_NAMES);
  });
});
