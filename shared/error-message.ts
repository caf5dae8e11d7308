/** What an error says, whatever was thrown (an Error, or any other value). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error's stack for a log, or what it says when it has none (or is not an Error). */
export function stackOf(error: unknown): string {
  return (error instanceof Error ? error.stack : undefined) ?? messageOf(error);
}

/** A Node error's `code` ('ENOENT', 'EPIPE', 'ERR_PARSE_ARGS_UNKNOWN_OPTION'…), if it has one. */
export function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
