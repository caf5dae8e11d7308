/** docs/ARCHITECTURE.md's "may import" table, from eslint/boundaries.js (architecture-table.mjs). */
export const HEADER: readonly string[];
export function mayImportRows(): string[][];
export function mayImportTable(): Promise<string>;
