/**
 * The real GitHub Copilot CLI (1.0.102) run once, non-interactively (`copilot -p "<prompt>"
 * --allow-all-tools`), offline against the loopback model stand-in: what the hook tests need that the
 * `/ide` tests (copilot-cli.ts, in tmux) do not.
 *
 * Observed with 1.0.102: `-p` requires `--allow-all-tools`, so Copilot asks nobody, and a preToolUse
 * hook is the one gate before a tool runs. Hooks come from `$COPILOT_HOME/hooks/*.json`; each runs with
 * the CLI's environment (DIFFTRAY_HOME reaches `difftray hook`). A run of three tool calls takes about
 * five seconds on an idle machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copilotEnv } from './copilot-cli';
import { runToExit } from './run-to-exit';

export interface CopilotPrintOptions {
  binary: string;
  workspace: string;
  /** HOME; the copilot home (hooks, config) is `<home>/.copilot`. */
  home: string;
  tmp: string;
  /** COPILOT_CACHE_HOME: where it unpacks itself (about 235 MB); shared by a file's tests. */
  cacheHome: string;
  /** The model stand-in's base URL (`…/v1`). */
  baseUrl: string;
  prompt: string;
  /** Added to the environment (DIFFTRAY_HOME). */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Said when it does not exit in time: how far it got. */
  progress?: () => string;
}

export interface CopilotPrintResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `copilot -p <prompt> --allow-all-tools` in `workspace` (trusted beforehand); resolves when it exits. */
export async function runCopilotPrint(options: CopilotPrintOptions): Promise<CopilotPrintResult> {
  const { binary, workspace, home, tmp, cacheHome, baseUrl, prompt, timeoutMs = 60_000 } = options;
  const copilotHome = path.join(home, '.copilot');
  mkdirSync(copilotHome, { recursive: true });
  // The person has worked in this folder before: no trust question.
  writeFileSync(path.join(copilotHome, 'config.json'), JSON.stringify({ trustedFolders: [workspace] }));
  const args = ['-p', prompt, '--allow-all-tools', '--no-auto-update', '--no-custom-instructions'];
  return runToExit('copilot -p', binary, args, {
    cwd: workspace,
    env: { ...copilotEnv({ home, tmp, cacheHome, baseUrl }), ...options.env },
    timeoutMs,
    ...(options.progress && { progress: options.progress }),
  });
}
