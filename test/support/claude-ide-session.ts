/**
 * The real Claude Code CLI run interactively as `claude --ide` in a tmux terminal (test/support/
 * tmux-terminal.ts): its IDE connection, and the diffs it opens in the IDE, exist only in its
 * interactive UI. Its sandbox is the app's: HOME is the app's home and CLAUDE_CONFIG_DIR its
 * `.claude`, where DiffTray writes its lock file (`ide/<port>.lock`) and where `.claude.json` says
 * onboarding is done, the stand-in's key approved and the workspace trusted (test/support/claude-code.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { claudeEnv, writeClaudeState } from './claude-code';
import { startTerminal } from './tmux-terminal';

export interface ClaudeIdeSessionOptions {
  binary: string;
  /** The folder it starts in: it connects to the IDE whose lock file lists this folder. */
  workspace: string;
  /** HOME; its config folder is `<home>/.claude`. */
  home: string;
  /** TMPDIR, and where the launcher script goes. */
  tmp: string;
  /** The model stand-in's base URL. */
  baseUrl: string;
  /** More arguments after `--ide` (e.g. `--permission-mode default`). */
  args?: string[];
}

export interface ClaudeIdeSession {
  /** What the terminal shows now. */
  screen(): string;
  /** Types `text` and presses Enter. */
  submitPrompt(text: string): void;
  /** Presses keys by tmux's names ('Enter', 'Escape', 'Down', '1'…). */
  press(...keys: string[]): void;
  /** Ends the CLI and whatever it started (its process group), then the private tmux server. */
  stop(): Promise<void>;
}

export function startClaudeIdeSession(options: ClaudeIdeSessionOptions): ClaudeIdeSession {
  const { binary, workspace, home, tmp, baseUrl } = options;
  const configDir = path.join(home, '.claude');
  mkdirSync(configDir, { recursive: true });
  writeClaudeState(configDir, workspace);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(claudeEnv({ workspace, home, configDir, tmp }, baseUrl))) {
    if (value !== undefined) env[key] = value;
  }
  const terminal = startTerminal({
    name: 'claude',
    command: [binary, '--ide', ...(options.args ?? [])],
    cwd: workspace,
    env,
    tmp,
  });
  return {
    screen: terminal.screen,
    submitPrompt: terminal.submit,
    press: terminal.press,
    stop: terminal.stop,
  };
}
