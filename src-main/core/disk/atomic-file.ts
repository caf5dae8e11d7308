/**
 * A private file written atomically: 0600 (in a 0700 folder unless told otherwise), written beside its
 * name and renamed over it, so a reader never sees half a file. Lock files, the Clio bridge file,
 * paired-clients.json and the `difftray` command's paired.json are written this way.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /**
   * Leave the folder's mode as it is (created with the default mode if missing). For a folder other
   * programs share, such as Gemini CLI's `<tmp>/gemini/ide`; the file itself is still 0600.
   */
  keepFolderMode?: boolean;
  /**
   * Create a missing folder 0700, but leave the mode of one that exists: for folders the user names
   * (the `extraLockFolders` setting), whose mode is theirs to choose; the file itself is still 0600.
   */
  keepExistingFolderMode?: boolean;
}

export function writeFileAtomically(
  file: string,
  content: string,
  mode = 0o600,
  options: AtomicWriteOptions = {},
): void {
  const dir = path.dirname(file);
  if (options.keepFolderMode) {
    mkdirSync(dir, { recursive: true });
  } else {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode does not apply to a folder that already exists; tighten it anyway.
    if (!options.keepExistingFolderMode) chmodSync(dir, 0o700);
  }
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, content, { mode, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
