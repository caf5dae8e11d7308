/**
 * A patch sent through the shell (`tool_name: "Bash"`), as Codex 0.171.0 recognises one: the whole
 * script is one `apply_patch` (or `applypatch`) command fed by a heredoc, optionally after one
 * `cd <dir> &&`. Anything else around it (`echo x &&`, `; cd`, `| cat`, a second command, an argument)
 * is not a patch to Codex, so it is not one here either: the call is then reviewed as a command.
 * Codex reads the script with a bash grammar; this reads the same forms line by line, and refuses the
 * rarer spellings (`<<-`, a `$` or `\` in the folder, an unterminated heredoc) rather than guess.
 */

export interface ShellPatch {
  /** The heredoc's body with its final newlines taken off: the patch text Codex parses. */
  patch: string;
  /** The folder of a leading `cd <dir> &&`, relative to the hook's cwd; null without one. */
  workdir: string | null;
  /** The script's text before the command name (`cd <dir> && ` or ""), kept when writing it back. */
  prefix: string;
}

const WORD = String.raw`[^\s'"$\\;&|<>()\`]+`;
const CD_DIR = String.raw`(?<bare>${WORD})|'(?<single>[^']*)'|"(?<double>[^"$\\\`]*)"`;
const FIRST_LINE = new RegExp(
  String.raw`^(?<prefix>cd[ \t]+(?:${CD_DIR})[ \t]*&&[ \t]*)?(?:apply_patch|applypatch)[ \t]*<<[ \t]*(?:'(?<q1>\w+)'|"(?<q2>\w+)"|(?<q3>\w+))[ \t]*$`,
);

export function patchFromShellScript(script: string): ShellPatch | null {
  const lines = script.replace(/^\s+/, '').split('\n');
  const match = FIRST_LINE.exec(lines[0] ?? '');
  const groups = match?.groups;
  if (groups === undefined) return null;
  const delimiter = groups.q1 ?? groups.q2 ?? groups.q3 ?? '';
  const end = lines.indexOf(delimiter, 1);
  if (end === -1) return null;
  // The heredoc must be the whole script: nothing but white space after its terminator.
  if (lines.slice(end + 1).some((line) => line.trim() !== '')) return null;
  const patch = lines.slice(1, end).join('\n').replace(/\n+$/, '');
  const workdir =
    groups.prefix === undefined ? null : (groups.bare ?? groups.single ?? groups.double ?? null);
  return { patch, workdir, prefix: groups.prefix ?? '' };
}

/** The script that sends `patch` the same way: the original prefix, a quoted heredoc, its terminator. */
export function shellScriptForPatch(patch: string, prefix: string): string {
  const lines = new Set(patch.split('\n'));
  let delimiter = 'PATCH';
  for (let n = 1; lines.has(delimiter); n++) delimiter = `PATCH_${n}`;
  const body = patch.endsWith('\n') ? patch : `${patch}\n`;
  return `${prefix}apply_patch <<'${delimiter}'\n${body}${delimiter}\n`;
}
