/** What an error says, whatever was thrown (an Error, or any other value). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
