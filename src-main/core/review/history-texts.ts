/** Counting the texts the review queue keeps, so History can be bounded by bytes. */
import type { DiskSnapshot } from '../disk/disk-snapshot';
import type { FileState, ProposedFile } from './review-file';

export function snapshotText(snapshot: DiskSnapshot): string | undefined {
  return snapshot.exists && snapshot.kind === 'text' ? snapshot.text : undefined;
}

/**
 * UTF-8 bytes of the distinct texts given. The same text reached by two fields (a base text and its
 * snapshot) is one string in memory, so it counts once.
 */
export function retainedBytes(texts: Iterable<string | undefined>): number {
  // A handful of texts: a scan finds the repeats without a Set, which would hash each whole text (the
  // texts of a new proposal are fresh strings, whose hash nobody computed yet).
  const counted: string[] = [];
  let total = 0;
  for (const text of texts) {
    if (!text || counted.includes(text)) continue;
    counted.push(text);
    total += Buffer.byteLength(text, 'utf8');
  }
  return total;
}

/** The texts of a review's files and of the proposal they came from. */
export function filesTextBytes(files: readonly FileState[], proposed: readonly ProposedFile[]): number {
  const texts: Array<string | undefined> = [];
  for (const file of files) {
    texts.push(file.baseText, file.proposedText, snapshotText(file.base), snapshotText(file.expectedOnDisk));
    if (file.disk.snapshot) texts.push(snapshotText(file.disk.snapshot));
    texts.push(file.otherBase?.text);
  }
  for (const file of proposed) {
    texts.push(file.proposedText, snapshotText(file.base));
    if (file.onDisk) texts.push(snapshotText(file.onDisk));
    texts.push(file.otherBase?.text);
  }
  return retainedBytes(texts);
}

/**
 * `filesTextBytes` of a review's files, given `proposalBytes`, that of its proposal alone: while the files
 * hold no text of their own (nothing edited, rebased or seen changed on disk) the two are the same texts,
 * and nothing needs counting again.
 */
export function reviewTextBytes(
  files: readonly FileState[],
  proposed: readonly ProposedFile[],
  proposalBytes: number,
): number {
  const onlyProposed = files.every((file, i) => {
    const from = proposed[i];
    return (
      from !== undefined &&
      file.proposedText === from.proposedText &&
      file.base === from.base &&
      file.expectedOnDisk === (from.onDisk ?? from.base) &&
      file.disk.snapshot === undefined
    );
  });
  return onlyProposed && files.length === proposed.length ? proposalBytes : filesTextBytes(files, proposed);
}
