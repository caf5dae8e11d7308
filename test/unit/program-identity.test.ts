/** What "Always allow this program" remembers beside the executable: the command line and the environment that changes what runs. */
import { describe, expect, it } from 'vitest';
import { MAX_PROGRAM_ARGS, MAX_PROGRAM_IDENTITY_CHARS } from '../../src-main/core/limits';
import {
  commandLineOf,
  isRunChangingVariable,
  readProcText,
  runChangingEnvironment,
} from '../../src-main/core/clients/program-identity';

describe('program identity', () => {
  it('keeps the variables that make a program load or run other code, sorted, and only those', () => {
    const environ = [
      'PATH=/usr/bin',
      'PYTHONSTARTUP=/tmp/x.py',
      'NODE_OPTIONS=--require=/tmp/evil.js',
      'HOME=/home/me',
      'LD_PRELOAD=/tmp/evil.so',
      'DYLD_INSERT_LIBRARIES=/tmp/e.dylib',
      'PERL5OPT=-Mevil',
      'RUBYOPT=-revil',
      'PYTHONPATH=/tmp',
      '',
    ].join('\0');
    expect(runChangingEnvironment(environ)).toEqual({
      DYLD_INSERT_LIBRARIES: '/tmp/e.dylib',
      LD_PRELOAD: '/tmp/evil.so',
      NODE_OPTIONS: '--require=/tmp/evil.js',
      PERL5OPT: '-Mevil',
      PYTHONPATH: '/tmp',
      PYTHONSTARTUP: '/tmp/x.py',
      RUBYOPT: '-revil',
    });
    expect(Object.keys(runChangingEnvironment(environ)!)).toEqual(
      Object.keys(runChangingEnvironment(environ)!).sort(),
    );
    expect(runChangingEnvironment('PATH=/bin\0HOME=/h\0')).toEqual({});
    expect(isRunChangingVariable('BASH_ENV')).toBe(true);
    expect(isRunChangingVariable('TERM')).toBe(false);
  });

  it('what is too long to keep is no identity (undefined): asked each time', () => {
    expect(runChangingEnvironment(`NODE_OPTIONS=${'x'.repeat(MAX_PROGRAM_IDENTITY_CHARS)}`)).toBeUndefined();
    expect(commandLineOf(`node\0${'a\0'.repeat(MAX_PROGRAM_ARGS)}`)).toBeUndefined();
    expect(commandLineOf(`node\0${'x'.repeat(MAX_PROGRAM_IDENTITY_CHARS)}\0`)).toBeUndefined();
    expect(commandLineOf('')).toBeUndefined();
    expect(commandLineOf('node\0-r\0evil.js\0cli.js\0')).toEqual(['node', '-r', 'evil.js', 'cli.js']);
  });

  it.runIf(process.platform === 'linux')('reads /proc files whole, and refuses past the bound', () => {
    const own = readProcText('/proc/self/cmdline', 1 << 20);
    expect(own).toContain('\0');
    expect(readProcText('/proc/self/cmdline', 3)).toBeUndefined();
    expect(readProcText('/proc/0/environ', 100)).toBeUndefined();
  });
});
