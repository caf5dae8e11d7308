/** Reads the on-disk side of a proposal, refusing what cannot be reviewed as text. */
import { open } from 'node:fs/promises';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export class UnreviewableFileError extends Error {}

export interface BaseText {
  text: string;
  exists: boolean;
}

/** A NUL byte in the first 8 KiB is how git and most editors tell binary from text. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export async function readBaseText(filePath: string, maxBytes = MAX_FILE_BYTES): Promise<BaseText> {
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', exists: false };
    throw new UnreviewableFileError(`Cannot read ${filePath}: ${(error as Error).message}`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new UnreviewableFileError(`Not a regular file: ${filePath}`);
    if (stats.size > maxBytes) {
      throw new UnreviewableFileError(`File is larger than ${maxBytes} bytes: ${filePath}`);
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes))
      throw new UnreviewableFileError(`Binary file cannot be reviewed as text: ${filePath}`);
    return { text: bytes.toString('utf8'), exists: true };
  } finally {
    await handle.close();
  }
}
