/**
 * `difftray approve`'s command line: difftray's own options (-m, -h), then the command to ask about,
 * after `--`. Without `--`, the command's options would be read as difftray's (`difftray approve ls -la`
 * fails on `-l`; `difftray approve git commit -m x` would take `-m x` as the reason): refused, with the
 * same line written the way that works.
 */
import { parseArgs } from 'node:util';
import { messageOf } from '../../shared/error-message';
import { CliError } from './errors';
import { shellQuote } from './approve';
import { codeOf } from '../../shared/error-message';

export interface ApproveArgs {
  command: string[];
  message?: string;
  help: boolean;
}

export function parseApproveArgs(args: readonly string[]): ApproveArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { message: { type: 'string', short: 'm' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    const said = firstSentence(messageOf(error));
    const unknown = codeOf(error) === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    throw new CliError(unknown ? `${said}: ${withSeparator(args)}` : said);
  }
  const { values, positionals, tokens } = parsed;
  // An option after the command's first word (no `--` before them) is the command's, not difftray's.
  const first = tokens.findIndex((token) => token.kind === 'positional');
  const late = first < 0 ? undefined : tokens.slice(first).find((token) => token.kind === 'option');
  if (late?.kind === 'option') {
    throw new CliError(
      `${late.rawName} after the command would be read as difftray's: ${withSeparator(args)}`,
    );
  }
  return {
    command: positionals,
    ...(values.message !== undefined && { message: values.message }),
    help: values.help === true,
  };
}

/** "a command with options goes after --, as in: difftray approve -- ls -la", from the words as typed. */
function withSeparator(args: readonly string[]): string {
  const start = commandStart(args);
  const words = [...args.slice(0, start), '--', ...args.slice(start)];
  return `a command with options goes after --, as in: difftray approve ${words.map(shellQuote).join(' ')}`;
}

/** Where the command begins: after difftray's own options (-m <why>, -h) at the front. */
function commandStart(args: readonly string[]): number {
  let index = 0;
  while (index < args.length) {
    const arg = args[index]!;
    if (arg === '-m' || arg === '--message') index += 2;
    else if (arg.startsWith('--message=') || /^-m./.test(arg) || arg === '-h' || arg === '--help') index++;
    else break;
  }
  return Math.min(index, args.length);
}

/** parseArgs' "Unknown option '-l'. To specify a positional…" as "unknown option '-l'". */
function firstSentence(text: string): string {
  const sentence = text.split(/\.\s|\n/)[0] ?? text;
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
