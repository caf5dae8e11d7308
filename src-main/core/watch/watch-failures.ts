/**
 * Folders inside a watched folder that the system would not watch (fs.watch failed), counted with the
 * first one's error and what lifts the limit. On Linux fs.watch is inotify: ENOSPC means the user's
 * inotify watches are used up (fs.inotify.max_user_watches), EMFILE that no more inotify instances or
 * file descriptors could be had. Changes in such a folder are not seen, so the window and
 * `difftray status` say so instead of showing the folder as watched.
 */
import type { WatchFix, WatchUnwatched } from '../../../shared/app-api';
import { readRegularFile } from '../disk/regular-file';

/** Suggested at least: enough for a few large repositories (as editors' docs suggest). */
const SUGGESTED_WATCHES = 524_288;
const SUGGESTED_INSTANCES = 1024;
const SYSCTL_FILE = '/etc/sysctl.d/60-difftray-inotify.conf';

const THEN = 'Then turn "Review changes on disk" off and on again for the folder (or restart DiffTray).';

export class WatchFailures {
  private count = 0;
  private first: { folder: string; error: NodeJS.ErrnoException } | undefined;

  /** `folder` could not be watched. */
  note(folder: string, error: Error): void {
    this.count++;
    this.first ??= { folder, error: error as NodeJS.ErrnoException };
  }

  /** What the window and `difftray status` show; undefined while every folder is watched. */
  get state(): WatchUnwatched | undefined {
    if (!this.first) return undefined;
    const { folder, error } = this.first;
    const fix = fixFor(error.code);
    return {
      count: this.count,
      first: folder,
      reason: error.message,
      ...(error.code !== undefined && { code: error.code }),
      ...(fix && { fix }),
    };
  }
}

/** What lifts the limit behind `code`, with a value above the one set now. */
export function fixFor(code: string | undefined): WatchFix | undefined {
  if (code === 'ENOSPC') {
    const value = Math.max(SUGGESTED_WATCHES, 2 * (currentLimit('max_user_watches') ?? 0));
    return sysctlFix(
      'max_user_watches',
      value,
      'The system limit of watched folders (inotify watches) is reached.',
    );
  }
  if (code === 'EMFILE') {
    const value = Math.max(SUGGESTED_INSTANCES, 2 * (currentLimit('max_user_instances') ?? 0));
    return sysctlFix(
      'max_user_instances',
      value,
      'No more inotify instances or open files could be had (also check `ulimit -n`).',
    );
  }
  return undefined;
}

function sysctlFix(name: string, value: number, explain: string): WatchFix {
  const setting = `fs.inotify.${name}=${value}`;
  return {
    explain,
    commands: [`sudo sysctl ${setting}`, `echo ${setting} | sudo tee ${SYSCTL_FILE}`],
    then: `The first command raises it now, the second keeps it after a reboot. ${THEN}`,
  };
}

function currentLimit(name: string): number | undefined {
  try {
    const value = Number(readRegularFile(`/proc/sys/fs/inotify/${name}`, { maxBytes: 64 }).trim());
    return Number.isSafeInteger(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
