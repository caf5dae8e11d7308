/** A plain JSON object (not null, not an array): what a parsed message or settings file must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
