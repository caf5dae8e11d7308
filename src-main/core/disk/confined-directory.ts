/**
 * A directory opened once, checked to be inside a workspace folder, and then used for every file
 * operation in it, so that nothing done later lands anywhere else: the checked directory is the one used.
 *
 * Node has no openat()/renameat(). On Linux, `/proc/self/fd/<fd>/<name>` names `<name>` inside the
 * directory the descriptor holds, wherever that directory is now and whatever symlinks were swapped into
 * the path it was opened by, so every operation below goes through the descriptor. Elsewhere the real
 * path is used and re-verified (same inode, same real path) right before each change to the directory;
 * a swap between that check and the system call is the window left there.
 *
 * The final name is never followed: opens use O_NOFOLLOW, and callers look (lstat, or the type a
 * listing just gave) before they act.
 *
 * Opening and closing the directory are direct system calls, not trips through libuv's thread pool: they
 * take microseconds, and the path they act on was just walked with lstatSync (workspace-paths.ts), so a
 * file system slow enough to matter has already held the caller up. A pool trip costs tens of times the
 * call itself, and every proposal, watch look and submit makes one.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsync,
  openSync,
  readdirSync,
  readlinkSync,
  type Dirent,
} from 'node:fs';
import { lstat, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { isCanonicalInsideWorkspace, PathOutsideWorkspaceError } from '../workspace/workspace-paths';

const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
const PROC_FD = '/proc/self/fd';
const viaProc = process.platform === 'linux' && existsSync(PROC_FD);

/** A file system entry that is not what it must be (a symlink, a FIFO, a folder where a file goes). */
export class UnsafeEntryError extends Error {}

export class ConfinedDirectory {
  private closed = false;

  private constructor(
    /** The descriptor of the opened directory; closed by `close`. */
    private readonly fd: number,
    /** The real path of the directory as it was when opened and checked. */
    readonly realPath: string,
  ) {}

  /**
   * Opens `dir` (a real path: symlinks already resolved) and checks that the directory actually opened
   * is inside one of `folders`. Throws PathOutsideWorkspaceError if not; ENOENT if it does not exist.
   */
  static async open(dir: string, folders: readonly string[]): Promise<ConfinedDirectory> {
    return ConfinedDirectory.adopt(openDirectory(dir), dir, folders);
  }

  /**
   * Opens `dir`, creating the folders that are missing, each inside the one before it, so a folder
   * swapped for a symlink while they are made is refused rather than followed.
   */
  static async openCreating(dir: string, folders: readonly string[]): Promise<ConfinedDirectory> {
    const missing: string[] = [];
    let existing = dir;
    while (!(await exists(existing))) {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
    let current = await ConfinedDirectory.open(existing, folders);
    try {
      for (const name of missing) {
        const entry = await current.entry(name);
        await mkdir(entry, 0o777).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        const child = await ConfinedDirectory.adopt(
          openDirectory(entry),
          path.join(current.realPath, name),
          folders,
        );
        await current.close();
        current = child;
      }
      return current;
    } catch (error) {
      await current.close();
      throw error;
    }
  }

  private static async adopt(
    fd: number,
    expectedPath: string,
    folders: readonly string[],
  ): Promise<ConfinedDirectory> {
    try {
      // /proc/self/fd links are kernel memory, no file system is asked.
      const real = viaProc ? readlinkSync(`${PROC_FD}/${fd}`) : await realpath(expectedPath);
      if (!viaProc) await checkSameDirectory(fd, real);
      // Both the kernel's name for the descriptor and realpath's are canonical.
      if (!isCanonicalInsideWorkspace(real, folders)) {
        throw new PathOutsideWorkspaceError(`Path is outside the workspace folders: ${expectedPath}`);
      }
      return new ConfinedDirectory(fd, real);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /**
   * The path that names `name` inside this directory for the next system call. Off Linux, the
   * directory is checked again first.
   */
  async entry(name: string): Promise<string> {
    if (name === '' || name === '.' || name === '..' || /[\\/\0]/.test(name)) {
      throw new UnsafeEntryError(`Not a file name: ${JSON.stringify(name)}`);
    }
    if (viaProc) return `${PROC_FD}/${this.fd}/${name}`;
    await checkSameDirectory(this.fd, this.realPath);
    return path.join(this.realPath, name);
  }

  /** The names in this directory. */
  async list(): Promise<string[]> {
    if (viaProc) return readdir(`${PROC_FD}/${this.fd}`);
    await checkSameDirectory(this.fd, this.realPath);
    return readdir(this.realPath);
  }

  /**
   * The entries in this directory with their types (as readdir gives them: no file is followed). Read
   * directly, not through the thread pool: a walk lists folder after folder, and a pool trip per folder
   * cost it more than the listing (the walk gives the event loop its turns itself).
   */
  async listEntries(): Promise<Dirent[]> {
    if (viaProc) return readdirSync(`${PROC_FD}/${this.fd}`, { withFileTypes: true });
    await checkSameDirectory(this.fd, this.realPath);
    return readdir(this.realPath, { withFileTypes: true });
  }

  /** The real path of `name` in this directory, for messages and logs. */
  display(name: string): string {
    return path.join(this.realPath, name);
  }

  /** Flushes the directory itself, so a rename in it survives a power loss. */
  async sync(): Promise<void> {
    await fsyncDescriptor(this.fd).catch(() => {
      // Some file systems cannot fsync a directory; the rename is still atomic.
    });
  }

  /** Once only: a descriptor number closed twice may by then name another open file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

const fsyncDescriptor = promisify(fsync);

function openDirectory(dir: string): number {
  try {
    return openSync(dir, DIRECTORY_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      throw new UnsafeEntryError(`Not a folder (or a symbolic link to one): ${dir}`);
    }
    throw error;
  }
}

/** The path still names the directory we hold: same device and inode, and no symlink on the way. */
async function checkSameDirectory(fd: number, real: string): Promise<void> {
  const [held, named] = [fstatSync(fd), await stat(real)];
  if (held.dev !== named.dev || held.ino !== named.ino || (await realpath(real)) !== real) {
    throw new UnsafeEntryError(`The folder ${real} was moved or replaced while in use`);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * `message` with the descriptor paths file operations went through (`/proc/self/fd/<n>/name`) told as
 * the folder they stand for, `dir`: what a person reading an error can act on.
 */
export function namingFolder(message: string, dir: string): string {
  return message.replace(/\/proc\/self\/fd\/\d+\//g, `${dir}${path.sep}`);
}
