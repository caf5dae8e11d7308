/** Counting the texts the review queue keeps, so History can be bounded by bytes. */
import type { DiskSnapshot } from './disk-snapshot';

export function snapshotText(snapshot: DiskSnapshot): string | undefined {
  return snapshot.exists && snapshot.kind === 'text' ? snapshot.text : undefined;
}

/**
 * UTF-8 bytes of the distinct texts given. The same text reached by two fields (a base text and its
 * snapshot) is one string in memory, so it counts once.
 */
export function retainedBytes(texts: Iterable<string | undefined>): number {
  let total = 0;
  for (const text of new Set(texts)) if (text) total += Buffer.byteLength(text, 'utf8');
  return total;
}
