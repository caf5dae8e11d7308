/**
 * An error the `difftray` command reports as one line on stderr, with its exit code (2 unless said), and
 * what to do about it when that is known (`fix`: said by the command after the message; a hook, whose
 * reader is an agent, says only the message).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
    readonly fix?: string,
  ) {
    super(message);
  }

  /** The message with its fix: "DiffTray is not running (…): start it …". */
  get withFix(): string {
    return this.fix === undefined ? this.message : `${this.message}: ${this.fix}`;
  }
}

/** `~/x` for paths under the home folder: shorter, and what people type. */
export function tildePath(file: string, home: string): string {
  if (home && (file === home || file.startsWith(`${home}/`))) return `~${file.slice(home.length)}`;
  return file;
}

/** The fix for a file or folder outside DiffTray's workspace folders. */
export const ADD_WORKSPACE_FOLDER =
  'add the folder in Settings → Workspace folders, or start DiffTray with --workspace <folder>';
