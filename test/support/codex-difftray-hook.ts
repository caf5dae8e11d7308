/**
 * DiffTray's hook in a test's `$CODEX_HOME`, until `difftray setup codex` exists: the one stand-in for
 * it, so the real-client tests can swap it for running setup the way a person does.
 */
import path from 'node:path';
import { writeCodexHooks } from './codex-cli';

/** The built `difftray` command (bin/difftray.cjs runs dist/main/cli.cjs). */
export const DIFFTRAY_BIN = path.resolve('bin', 'difftray.cjs');

/** The hook command line `difftray setup codex` is to install: absolute paths, any folder. */
export function difftrayCodexHookCommand(): string {
  return [process.execPath, DIFFTRAY_BIN, 'hook', 'codex'].map(shellQuote).join(' ');
}

/**
 * Writes `$CODEX_HOME/hooks.json` with DiffTray's PreToolUse hook for patches and shell commands, its
 * timeout an hour: a hook Codex kills at its timeout is not a decision, and Codex then writes.
 */
export function installDiffTrayCodexHook(codexHome: string, hookCommand = difftrayCodexHookCommand()): void {
  writeCodexHooks(codexHome, [{ matcher: 'apply_patch|Bash', command: hookCommand, timeoutSec: 3600 }]);
}

/** Single-quoted for a POSIX shell, which runs hook commands. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
