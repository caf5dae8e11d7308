/**
 * dist/main/cli.cjs, the `difftray` command's entry. A hook (`difftray hook …`) runs on every tool call of
 * every agent, so it starts with the lean first step and loads the full hook (hook.cjs) only for a call
 * DiffTray must review; every other command loads the whole CLI (cli-main.cjs). Both sit beside this file.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { messageOf } from '../../shared/error-message';
import { CliError } from './errors';
import { runHookCommand, type FullHook } from './hooks/hook-command';
import { processHookIo } from './hooks/process-hook-io';

const load = createRequire(__filename);
const [command, ...rest] = process.argv.slice(2);

if (command === 'hook') {
  runHookCommand(
    rest,
    processHookIo({ env: process.env, cwd: process.cwd() }),
    () => load(path.join(__dirname, 'hook.cjs')) as FullHook,
  ).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // Only a usage error gets here (an unknown agent): the hook itself never throws.
      process.stderr.write(`difftray: ${error instanceof CliError ? error.message : messageOf(error)}\n`);
      process.exitCode = error instanceof CliError ? error.exitCode : 2;
    },
  );
} else {
  load(path.join(__dirname, 'cli-main.cjs'));
}
