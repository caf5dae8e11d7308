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

// fatal: text that is not UTF-8 would come back altered on write; ignoreBOM: keep a BOM as text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array, filePath: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UnreviewableFileError(`File is not UTF-8 text and cannot be reviewed: ${filePath}`);
  }
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
    return { text: decodeUtf8(bytes, filePath), exists: true };
  } finally {
    await handle.close();
  }
}
