/** A hook's IO as the `difftray` process has it: its stdin, stdout and stderr. */
import type { HookIo } from './hook-input';

export function processHookIo(where: { env: NodeJS.ProcessEnv; cwd: string }): HookIo {
  return {
    env: where.env,
    cwd: where.cwd,
    stdin: process.stdin,
    out: (text) => process.stdout.write(`${text}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
}
