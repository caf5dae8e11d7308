/**
 * The command an agent runs as DiffTray's hook (`… hook claude-code`, `… hook codex`, `… hook copilot
 * preToolUse`): absolute paths, so it works from any folder. Agents run hook commands through a shell
 * (bash, Git Bash on Windows).
 */
import { appImageCliArgs } from './app-image';

export interface HookCommandParts {
  /** The program that runs cli.cjs: node, or the Electron app's executable. */
  execPath: string;
  /** dist/main/cli.cjs, absolute. */
  cliPath: string;
  /** Under Electron the executable runs the script as plain Node only with ELECTRON_RUN_AS_NODE=1. */
  electron: boolean;
}

/** The words after the program: `hook claude-code` unless said. */
const CLAUDE_WORDS: readonly string[] = ['hook', 'claude-code'];

export function claudeHookCommand(
  { execPath, cliPath, electron }: HookCommandParts,
  hookWords: readonly string[] = CLAUDE_WORDS,
): string {
  const run = `${shellQuote(execPath)} ${shellQuote(cliPath)} ${plainWords(hookWords)}`;
  return electron ? `ELECTRON_RUN_AS_NODE=1 ${run}` : run;
}

/**
 * The hook command for the program running now (`process.execPath`), given where cli.cjs is. From an
 * AppImage, the AppImage file runs the CLI found in its current mount (app-image.ts): a path into this
 * run's mount would be gone by the next.
 */
export function currentHookCommand(
  cliPath: string,
  env: NodeJS.ProcessEnv = process.env,
  electron = process.versions.electron !== undefined,
  hookWords: readonly string[] = CLAUDE_WORDS,
): string {
  if (electron && env.APPIMAGE) {
    const words = [env.APPIMAGE, ...appImageCliArgs(cliPath, env.APPDIR)];
    return `ELECTRON_RUN_AS_NODE=1 ${words.map(shellQuote).join(' ')} ${plainWords(hookWords)}`;
  }
  return claudeHookCommand({ execPath: process.execPath, cliPath, electron }, hookWords);
}

/**
 * The trailing words as they are, unquoted: setup recognises our hooks by the command ending in them
 * (`hook codex`), whatever comes before. They are DiffTray's own names, which no shell reads differently.
 */
function plainWords(hookWords: readonly string[]): string {
  for (const word of hookWords) {
    if (!/^[A-Za-z][A-Za-z-]*$/.test(word)) throw new Error(`"${word}" is not a plain hook word`);
  }
  return hookWords.join(' ');
}

/**
 * One word for a POSIX shell. Double quotes when nothing inside is special to them, since a Windows path
 * in double quotes reads the same in bash and in cmd; otherwise single quotes, which keep everything.
 */
export function shellQuote(word: string): string {
  if (!/["$`\n]|\\["$`\\\n]/.test(word) && !word.endsWith('\\')) return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
