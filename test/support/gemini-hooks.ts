/**
 * The real Gemini CLI (0.61.0) run once, headless (`gemini -p "<prompt>"`), with DiffTray's hooks in its
 * user settings, against the loopback model stand-in: what the hook tests need that the IDE-mode tests
 * (gemini-cli.ts, in tmux) do not.
 *
 * Observed with 0.61.0 (its bundle's settings schema and hook runner):
 * - Hooks live in `<HOME>/.gemini/settings.json` under `hooks.<Event>`: a list of
 *   `{matcher, hooks: [{type: "command", command, name?, description?, timeout?}]}`. The matcher is a
 *   JavaScript regular expression tested (unanchored) against the tool name. `timeout` is in
 *   milliseconds, 60 000 when absent; a hook that times out is a failed hook and the tool runs as if
 *   there were none. Hooks are on by default (`hooksConfig.enabled`); user settings need no trust step.
 * - The command runs through `bash -c` in the session's folder with Gemini's environment.
 * - In `-p` a tool whose policy says "ask" is not offered to the model at all (a call of it fails with
 *   'Tool "…" not found'): the edit tools exist only with `--approval-mode auto_edit` (or yolo), the
 *   shell tool only with yolo (or a policy / the deprecated `--allowed-tools` allowing it). BeforeTool
 *   runs before the policy check, so a hook's deny or rewrite comes first.
 */
import { runDiffTraySetup } from './difftray-setup';
import { geminiEnv, writeGeminiSettings } from './gemini-cli';
import { runToExit } from './run-to-exit';

/**
 * Gemini's settings with IDE mode off, then DiffTray's hooks installed as a person does it: `difftray
 * setup gemini` with HOME the test's, editing that settings.json.
 */
export function installDiffTrayGeminiHooks(home: string): void {
  writeGeminiSettings(home, { ide: false });
  runDiffTraySetup('gemini', { HOME: home });
}

export interface GeminiPrintOptions {
  entry: string;
  workspace: string;
  /** HOME, holding `.gemini/settings.json`. */
  home: string;
  tmp: string;
  baseUrl: string;
  prompt: string;
  /**
   * auto_edit (the default here) offers the edit tools; only yolo also offers run_shell_command (or a
   * policy allowing it). BeforeTool runs before the approval mode's policy either way.
   */
  approvalMode?: 'auto_edit' | 'yolo';
  /** Added to the environment (DIFFTRAY_HOME). */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Said when it does not exit in time: how far it got. */
  progress?: () => string;
}

export interface GeminiPrintResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gemini -p <prompt> --approval-mode <mode>` in `workspace`; resolves when it exits. */
export async function runGeminiPrint(options: GeminiPrintOptions): Promise<GeminiPrintResult> {
  const {
    entry,
    workspace,
    home,
    tmp,
    baseUrl,
    prompt,
    approvalMode = 'auto_edit',
    timeoutMs = 60_000,
  } = options;
  const args = [entry, '-p', prompt, '--approval-mode', approvalMode];
  return runToExit('gemini -p', process.execPath, args, {
    cwd: workspace,
    env: { ...geminiEnv({ home, tmp, baseUrl }), ...options.env },
    timeoutMs,
    ...(options.progress && { progress: options.progress }),
  });
}
