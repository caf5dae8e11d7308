/**
 * A file as a hook reviews it: its text now, or null when it does not exist. A binary, non-UTF-8 or too
 * large file, a folder or a FIFO is not reviewed (the hook then gives no decision): thrown as a CliError.
 */
import { readDiskSnapshot } from '../../core/disk/disk-snapshot';
import { resolveRealPath } from '../../core/workspace/workspace-paths';
import { CliError } from '../errors';

export async function readForHook(file: string): Promise<string | null> {
  const snapshot = await readDiskSnapshot(resolveRealPath(file));
  if (!snapshot.exists) return null;
  if (snapshot.kind !== 'text') throw new CliError(`${file} is ${snapshot.why}: not reviewed`);
  return snapshot.text;
}
