/** An error the `difftray` command reports as one line on stderr, with its exit code (2 unless said). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** `~/x` for paths under the home folder: shorter, and what people type. */
export function tildePath(file: string, home: string): string {
  if (home && (file === home || file.startsWith(`${home}/`))) return `~${file.slice(home.length)}`;
  return file;
}
