import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { claudeHookCommand, shellQuote } from '../../../src-main/core/setup/claude-hook-command';

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
