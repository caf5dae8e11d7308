/**
 * Which folders become the workspace. An app started from the dock, the start menu or at login has the
 * current directory `/` or a system folder: taking it would open the whole disk to agents (or match no
 * agent's folder). So the current directory is taken only from `npm start` in a project, and never
 * the filesystem root, the home folder itself or a system folder; with no folder at all, the app asks.
 */
import path from 'node:path';

export interface FolderContext {
  home: string;
  platform: NodeJS.Platform;
  /** The system's temp folder (its subfolders are fine, itself is not a project). */
  tmpDir: string;
  env: NodeJS.ProcessEnv;
}

/** Folders that are system folders, and so is everything inside them. */
const SYSTEM_TREES: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: [
    ...['/proc', '/sys', '/dev', '/boot', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'],
    ...['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/lib32', '/usr/lib64', '/usr/libexec', '/usr/include'],
  ],
  darwin: ['/System', '/Library', '/bin', '/sbin', '/etc', '/private/etc', '/dev', '/cores'],
};

/** Folders that are system folders themselves, while projects may live below them. */
const SYSTEM_FOLDERS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: [
    '/usr',
    '/usr/local',
    '/usr/share',
    '/usr/lib',
    '/var',
    '/opt',
    '/srv',
    '/run',
    '/mnt',
    '/media',
    '/snap',
    '/tmp',
  ],
  darwin: [
    '/usr',
    '/usr/local',
    '/var',
    '/private',
    '/private/var',
    '/private/tmp',
    '/tmp',
    '/opt',
    '/Applications',
    '/Volumes',
    '/Users',
  ],
};

function pathsFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Windows' system folders, from its environment (C:\Windows, C:\Program Files...). */
function windowsSystemFolders(env: NodeJS.ProcessEnv): { trees: string[]; folders: string[] } {
  const given = (name: string) => env[name] ?? env[name.toUpperCase()];
  const trees = [given('SystemRoot') ?? 'C:\\Windows', given('ProgramFiles'), given('ProgramFiles(x86)')];
  const folders = [given('ProgramData'), given('PUBLIC') && path.win32.dirname(given('PUBLIC')!)];
  return {
    trees: trees.filter((folder): folder is string => Boolean(folder)),
    folders: folders.filter((folder): folder is string => Boolean(folder)),
  };
}

/**
 * Why `folder` (an absolute, real path) should not be a workspace folder, or undefined when it may
 * be. `homeAllowed`: the person named the home folder themselves (Settings' Add), which is their call.
 */
export function broadFolderProblem(
  folder: string,
  context: FolderContext,
  { homeAllowed = false }: { homeAllowed?: boolean } = {},
): string | undefined {
  const paths = pathsFor(context.platform);
  const windows = context.platform === 'win32';
  const normal = (p: string) => {
    const resolved = paths.resolve(p);
    return windows ? resolved.toLowerCase() : resolved;
  };
  const target = normal(folder);
  const inside = (tree: string) => {
    const relative = paths.relative(normal(tree), target);
    return relative === '' || (!relative.startsWith('..') && !paths.isAbsolute(relative));
  };
  if (target === normal(paths.parse(target).root)) {
    return 'it is the root of the disk: every file on it would be open to agents';
  }
  const home = normal(context.home);
  if (target === home && !homeAllowed) {
    return 'it is your home folder: every file you have would be open to agents; choose a project folder';
  }
  // An ancestor of the home folder (/home, /Users, C:\Users) holds every user's files.
  const toHome = paths.relative(target, home);
  if (toHome !== '' && !toHome.startsWith('..') && !paths.isAbsolute(toHome)) {
    return 'it holds your home folder: every file you have would be open to agents';
  }
  const system = windows
    ? windowsSystemFolders(context.env)
    : { trees: SYSTEM_TREES[context.platform] ?? [], folders: SYSTEM_FOLDERS[context.platform] ?? [] };
  if (system.trees.some(inside) || [...system.folders, context.tmpDir].some((f) => normal(f) === target)) {
    return 'it is a system folder';
  }
  return undefined;
}

/**
 * The folder the app was started in, when it counts as the person's choice: `npm start` run in a
 * project (npm's INIT_CWD is where it was typed), unless that is the root, home or a system folder.
 */
export function implicitStartFolder(
  cwd: string,
  context: FolderContext,
): { folder: string } | { skipped: string; problem?: string } {
  if (context.env.npm_lifecycle_event !== 'start') {
    return { skipped: 'started without a folder' };
  }
  const folder = context.env.INIT_CWD || cwd;
  const problem = broadFolderProblem(folder, context);
  return problem === undefined ? { folder } : { skipped: folder, problem };
}
