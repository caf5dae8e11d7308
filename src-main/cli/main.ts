/**
 * The `difftray` command (installed by the package's bin, bin/difftray.cjs → dist/main/cli.cjs).
 * It finds the running app through `<DIFFTRAY_HOME or ~/.difftray>/<port>.lock` and speaks DiffTray's
 * native protocol to it. Every error is one line on stderr; exit code 2.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import packageJson from '../../package.json';
import { approve } from './approve';
import { parseApproveArgs } from './approve-args';
import { CliError } from './errors';
import { runHookCommand } from './hooks/hook-command';
import * as fullHook from './hooks/hook-main';
import { processHookIo } from './hooks/process-hook-io';
import { pair } from './pair';
import { review } from './review';
import { setup, SETUP_TARGETS } from './setup';
import { open, status } from './status';
import { watch } from './watch';
import { messageOf } from '../../shared/error-message';
import { isClosedPipe, tolerateClosedPipe } from './output';

const USAGE = `usage: difftray <command> [options]

Commands:
  review [patch-file]      Submit a unified diff (a file, or stdin) for review in DiffTray and wait;
                           prints one line per file. A patch not applied yet is applied as accepted;
                           a patch already on disk (git diff | difftray review) keeps the accepted hunks
                           and reverts the rejected ones. Exit 0: all accepted, 1: something rejected,
                           2: an error (DiffTray not running, bad patch, conflict).
    -t, --title <text>     Title shown in DiffTray
    -m, --message <text>   Why: shown with the review
    -c, --criterion <text> An acceptance criterion (repeatable)
  approve [-m why] -- <command...>
                           Ask in DiffTray whether a command may run; the script runs it itself.
                           Exit 0: allowed, 1: denied (the note on stderr), 2: an error.
  hook <agent> [event]     The hook an agent runs before a tool call (JSON on stdin), for claude-code,
                           codex, gemini, copilot or qwen (setup writes it): reviews the edit in
                           DiffTray, or asks about a shell command, and prints the agent's answer;
                           prints nothing when DiffTray cannot decide (the agent asks as usual).
  status                   Whether DiffTray runs, its pending reviews, connected clients and the folders
                           it reviews changes on disk in (watch).
  open                     Show DiffTray's window; a headless DiffTray opens its UI in your browser
                           itself (its address is printed only where DiffTray was started).
  watch [folder]           Review what any agent writes directly into the folder (default: the current
                           one), after the fact, as "Changes on disk"; remembered in DiffTray's settings.
    --off                  Stop reviewing that folder's changes
  pair --port <n>          Pair this host with DiffTray on another machine, reached through a tunnel
                           (ssh -R <n>:127.0.0.1:<DiffTray's port>): type the code DiffTray shows under
                           Connections → Pair a remote agent. Then review and hook work from here.
    --host <addr>          Where the tunnel listens (default 127.0.0.1)
    --name <text>          This host's name in DiffTray (default: the host name)
    --code <digits>        The code, for scripts (default: asked)
    --server-port <n>      DiffTray's own port, if the tunnel forwards from another (default: --port)
    --new-host-key         Pin whatever DiffTray key answers, even if another is pinned (a new
                           DiffTray: compare the key printed with the one DiffTray shows by the code)
  setup <agent>            Let DiffTray review an agent's edits and commands through its hooks, from any
                           terminal: adds DiffTray's hooks to the agent's own file, backing up the old
                           file first. <agent> is one of:
                             claude-code  $CLAUDE_CONFIG_DIR/settings.json (default ~/.claude)
                             codex        $CODEX_HOME/hooks.json (default ~/.codex); then trust the hook
                                          in Codex: /hooks, then t
                             gemini       ~/.gemini/settings.json
                             copilot      $COPILOT_HOME/hooks/difftray.json (default ~/.copilot)
                             qwen         $QWEN_HOME/settings.json (default ~/.qwen)
    --also <Tool,...>      claude-code only: more tools to ask DiffTray about (besides Edit, MultiEdit,
                           Write, Bash)
    --dry-run              Only print what would change
    --remove               Take DiffTray's hook out again (other hooks stay)

Options: -h, --help; -v, --version.
DiffTray's lock files are in $DIFFTRAY_HOME (default ~/.difftray).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  const io = {
    env: process.env,
    cwd: process.cwd(),
    out: (line: string) => process.stdout.write(`${line}\n`),
  };
  switch (command) {
    case 'review': {
      const { values, positionals } = parse(() =>
        parseArgs({
          args: rest,
          options: {
            title: { type: 'string', short: 't' },
            message: { type: 'string', short: 'm' },
            criterion: { type: 'string', short: 'c', multiple: true },
            help: { type: 'boolean', short: 'h' },
          },
          allowPositionals: true,
          strict: true,
        }),
      );
      if (values.help) return help();
      if (positionals.length > 1)
        throw new CliError(`review takes one patch file, not ${positionals.length}`);
      return review(
        {
          ...(positionals[0] !== undefined && { patchFile: positionals[0] }),
          ...(values.title !== undefined && { title: values.title }),
          ...(values.message !== undefined && { rationale: values.message }),
          ...(values.criterion !== undefined && { criteria: values.criterion }),
        },
        {
          ...io,
          stdin: process.stdin,
          stdinFd: 0,
          version: packageJson.version,
          ...(process.stderr.isTTY && { notice: (line: string) => process.stderr.write(`${line}\n`) }),
          warn: (line: string) => process.stderr.write(`${line}\n`),
        },
      );
    }
    case 'approve': {
      const { command: words, message, help: wantsHelp } = parseApproveArgs(rest);
      if (wantsHelp) return help();
      return approve(words, message, {
        env: io.env,
        cwd: io.cwd,
        err: (line) => process.stderr.write(`${line}\n`),
        version: packageJson.version,
      });
    }
    case 'hook': {
      // Run from cli.cjs, a hook never gets here: the launcher runs it with the full hook loaded lazily.
      return runHookCommand(rest, processHookIo(io), () => fullHook);
    }
    case 'status':
    case 'open': {
      const { values, positionals } = parse(() =>
        parseArgs({ args: rest, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true }),
      );
      if (values.help) return help();
      if (positionals.length > 0) throw new CliError(`${command} takes no arguments`);
      return command === 'status' ? status(io) : open(io);
    }
    case 'watch': {
      const { values, positionals } = parse(() =>
        parseArgs({
          args: rest,
          options: { off: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
          allowPositionals: true,
          strict: true,
        }),
      );
      if (values.help) return help();
      if (positionals.length > 1) throw new CliError(`watch takes one folder, not ${positionals.length}`);
      return watch(
        {
          ...(positionals[0] !== undefined && { folder: positionals[0] }),
          ...(values.off !== undefined && { off: values.off }),
        },
        io,
      );
    }
    case 'pair': {
      const { values, positionals } = parse(() =>
        parseArgs({
          args: rest,
          options: {
            port: { type: 'string' },
            host: { type: 'string' },
            name: { type: 'string' },
            code: { type: 'string' },
            'server-port': { type: 'string' },
            'new-host-key': { type: 'boolean' },
            help: { type: 'boolean', short: 'h' },
          },
          allowPositionals: true,
          strict: true,
        }),
      );
      if (values.help) return help();
      if (positionals.length > 0 || values.port === undefined) {
        throw new CliError(
          'usage: difftray pair --port <n> [--host <addr>] [--name <text>] [--code <digits>]',
        );
      }
      return pair(
        {
          port: portNumber(values.port, '--port'),
          ...(values.host !== undefined && { host: values.host }),
          ...(values.name !== undefined && { name: values.name }),
          ...(values.code !== undefined && { code: values.code }),
          ...(values['server-port'] !== undefined && {
            serverPort: portNumber(values['server-port'], '--server-port'),
          }),
          ...(values['new-host-key'] === true && { newHostKey: true }),
        },
        { env: io.env, stdin: process.stdin, stderr: process.stderr, out: io.out },
      );
    }
    case 'setup': {
      const { values, positionals } = parse(() =>
        parseArgs({
          args: rest,
          options: {
            remove: { type: 'boolean' },
            'dry-run': { type: 'boolean' },
            also: { type: 'string' },
            help: { type: 'boolean', short: 'h' },
          },
          allowPositionals: true,
          strict: true,
        }),
      );
      if (values.help) return help();
      if (positionals.length !== 1)
        throw new CliError(
          `usage: difftray setup <${SETUP_TARGETS.join('|')}> [--remove] [--dry-run] [--also <Tool,...>]`,
        );
      return setup(
        {
          target: positionals[0]!,
          ...(values.remove !== undefined && { remove: values.remove }),
          ...(values['dry-run'] !== undefined && { dryRun: values['dry-run'] }),
          ...(values.also !== undefined && { also: values.also }),
        },
        // The hook runs the command's launcher, dist/main/cli.cjs, beside this bundle (cli-main.cjs).
        { env: io.env, out: io.out, cliPath: path.join(__dirname, 'cli.cjs') },
      );
    }
    default:
      throw new CliError(`unknown command "${command}" (try difftray --help)`);
  }
}

function portNumber(text: string, option: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new CliError(`${option} takes a port number`);
  return port;
}

function help(): number {
  process.stdout.write(`${USAGE}\n`);
  return 0;
}

/** parseArgs' own errors, as one short line ("unknown option '--x'"). */
function parse<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    const sentence = messageOf(error).split(/\.\s|\n/)[0] ?? 'invalid arguments';
    throw new CliError(sentence.length > 0 ? sentence[0]!.toLowerCase() + sentence.slice(1) : sentence);
  }
}

tolerateClosedPipe(process.stdout, 'stdout');
tolerateClosedPipe(process.stderr, 'stderr');
// A bug is said in one line, as every other error is; the exit code tells a script something failed.
process.on('uncaughtException', (error) => {
  if (isClosedPipe(error)) return;
  process.stderr.write(`difftray: internal error: ${messageOf(error)}\n`);
  process.exit(2);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof CliError ? error.withFix : `internal error: ${messageOf(error)}`;
    process.stderr.write(`difftray: ${message}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 2;
  },
);
