import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isDiffTrayHookCommand } from '../../../shared/claude-code/hook-settings';
import { endsInHookWords } from '../../../shared/hook-setup/hook-entries';
import {
  claudeHookCommand,
  currentHookCommand,
  shellQuote,
} from '../../../src-main/core/setup/claude-hook-command';

describe('the hook command', () => {
  it('runs cli.cjs with node, both paths quoted', () => {
    expect(
      claudeHookCommand({
        execPath: '/usr/bin/node',
        cliPath: '/opt/Diff Tray/dist/main/cli.cjs',
        electron: false,
      }),
    ).toBe('"/usr/bin/node" "/opt/Diff Tray/dist/main/cli.cjs" hook claude-code');
  });

  it('under Electron, runs the app as plain Node', () => {
    expect(
      claudeHookCommand({
        execPath: '/Applications/DiffTray.app/Contents/MacOS/DiffTray',
        cliPath: '/Applications/DiffTray.app/Contents/Resources/app.asar/dist/main/cli.cjs',
        electron: true,
      }),
    ).toBe(
      'ELECTRON_RUN_AS_NODE=1 "/Applications/DiffTray.app/Contents/MacOS/DiffTray" ' +
        '"/Applications/DiffTray.app/Contents/Resources/app.asar/dist/main/cli.cjs" hook claude-code',
    );
  });

  it("ends in the agent's words, unquoted, so that setup recognises it", () => {
    const parts = { execPath: '/usr/bin/node', cliPath: '/opt/cli.cjs', electron: false };
    expect(claudeHookCommand(parts, ['hook', 'copilot', 'preToolUse'])).toBe(
      '"/usr/bin/node" "/opt/cli.cjs" hook copilot preToolUse',
    );
    expect(() => claudeHookCommand(parts, ['hook', 'a b'])).toThrow('not a plain hook word');
  });

  it('from an AppImage too: the words come last, unquoted', () => {
    const env = { APPIMAGE: '/home/me/DiffTray.AppImage', APPDIR: '/tmp/.mount_X' };
    const claude = currentHookCommand('/tmp/.mount_X/resources/cli.cjs', env, true);
    expect(claude).toMatch(
      /^ELECTRON_RUN_AS_NODE=1 "\/home\/me\/DiffTray\.AppImage" "-e" .* hook claude-code$/,
    );
    expect(isDiffTrayHookCommand(claude)).toBe(true);
    const codex = currentHookCommand('/tmp/.mount_X/resources/cli.cjs', env, true, ['hook', 'codex']);
    expect(endsInHookWords(codex, ['hook', 'codex'])).toBe(true);
  });

  it('keeps Windows paths in double quotes, which bash and cmd read alike', () => {
    expect(shellQuote('C:\\Program Files\\nodejs\\node.exe')).toBe('"C:\\Program Files\\nodejs\\node.exe"');
  });

  it('single-quotes what double quotes would change', () => {
    expect(shellQuote("/home/me/$HOME/it's")).toBe(`'/home/me/$HOME/it'\\''s'`);
    expect(shellQuote('C:\\dir\\')).toBe(`'C:\\dir\\'`);
  });

  it.runIf(process.platform !== 'win32')('each quoted word reaches the program as it was (sh)', () => {
    const words = [
      '/opt/Diff Tray/cli.cjs',
      'C:\\Program Files\\nodejs\\node.exe',
      'a"b',
      'x$HOME`id`',
      "it's",
      'back\\slash\\',
      'new\nline',
      'C:\\a\\$b',
    ];
    const script = `printf '%s\\0' ${words.map(shellQuote).join(' ')}`;
    const result = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(words);
  });
});
