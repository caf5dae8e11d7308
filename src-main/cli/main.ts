/**
 * The `difftray` command. For now: `difftray status` tells whether the app runs and where the CLIs
 * will find it. (`review` and `open` arrive with the native protocol.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { claudeLockDir } from '../bridge/endpoints';
import { isProcessAlive } from '../bridge/lock-files';

const USAGE = 'usage: difftray status';

function status(): number {
  const dir = claudeLockDir();
  let running = 0;
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.lock'));
  } catch {
    // No lock folder: nothing runs.
  }
  for (const name of names) {
    try {
      const lock = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as {
        pid?: number;
        ideName?: string;
        workspaceFolders?: string[];
      };
      if (lock.ideName !== 'DiffTray' || typeof lock.pid !== 'number' || !isProcessAlive(lock.pid)) continue;
      running++;
      console.log(
        `DiffTray running (pid ${lock.pid}, port ${path.basename(name, '.lock')}) for ${(lock.workspaceFolders ?? []).join(', ')}`,
      );
    } catch {
      // Someone else's or half-written lock file: not ours to report.
    }
  }
  if (running === 0) {
    console.log('DiffTray is not running.');
    return 1;
  }
  return 0;
}

function main(argv: string[]): number {
  const [command] = argv;
  if (command === 'status') return status();
  if (command === '--help' || command === '-h' || command === undefined) {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  console.error(`difftray: unknown command "${command}". ${USAGE}`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
