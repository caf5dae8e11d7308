import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findGitProgram,
  NEUTRAL_GIT_CONFIG,
  runSafeGit,
  safeGitArgs,
  safeGitEnv,
} from '../../src-main/core/workspace/safe-git';
import { makeTempDir } from '../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(): string {
  const temp = makeTempDir('safe-git');
  cleanups.push(temp.cleanup);
  return realpathSync(temp.dir);
}

describe('safeGitArgs', () => {
  it('puts --no-optional-locks and every neutral setting before the command', () => {
    const args = safeGitArgs(['ls-files', '-z']);
    expect(args[0]).toBe('--no-optional-locks');
    expect(args.slice(-2)).toEqual(['ls-files', '-z']);
    const settings = args.slice(1, -2);
    expect(settings.filter((_, i) => i % 2 === 0).every((flag) => flag === '-c')).toBe(true);
    expect(settings.filter((_, i) => i % 2 === 1)).toEqual([...NEUTRAL_GIT_CONFIG]);
    for (const setting of [
      'core.fsmonitor=',
      'core.hooksPath=/dev/null',
      'diff.external=',
      'core.pager=cat',
      'credential.helper=',
      'core.sshCommand=',
      'protocol.allow=never',
    ]) {
      expect(NEUTRAL_GIT_CONFIG).toContain(setting);
    }
  });

  it('pins the repository and work tree when given, before the command', () => {
    const args = safeGitArgs(['cat-file', '--batch'], { gitDir: '/r/.git', workTree: '/r' });
    expect(args.slice(-4)).toEqual(['--git-dir=/r/.git', '--work-tree=/r', 'cat-file', '--batch']);
  });
});

describe('safeGitEnv', () => {
  it('drops every GIT_ variable (any case) and sets the neutral ones', () => {
    const env = safeGitEnv({
      PATH: '/usr/bin',
      HOME: '/home/p',
      GIT_DIR: '/elsewhere/.git',
      GIT_WORK_TREE: '/elsewhere',
      GIT_EXEC_PATH: '/evil',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: '/evil/hook',
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/evil/hook'",
      GIT_CONFIG_GLOBAL: '/evil/config',
      GIT_EXTERNAL_DIFF: '/evil/diff',
      Git_Index_File: '/evil/index',
      LC_ALL: 'de_DE.UTF-8',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/p',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_NO_LAZY_FETCH: '1',
      GIT_PROTOCOL_FROM_USER: '0',
      LC_ALL: 'C',
    });
  });
});

describe('findGitProgram', () => {
  it("takes git from PATH's absolute folders only, never from a relative or empty entry", () => {
    const bin = folder();
    const git = path.join(bin, 'git');
    writeFileSync(git, '#!/bin/sh\n');
    chmodSync(git, 0o755);
    const notExecutable = folder();
    writeFileSync(path.join(notExecutable, 'git'), '#!/bin/sh\n');
    chmodSync(path.join(notExecutable, 'git'), 0o644);
    expect(findGitProgram({ PATH: `:.:relative/bin:${notExecutable}:${bin}` }, 'linux')).toBe(git);
    expect(findGitProgram({ PATH: ':.:relative/bin' }, 'linux')).toBeUndefined();
    expect(findGitProgram({}, 'linux')).toBeUndefined();
  });
});

describe('runSafeGit, with real git', () => {
  it('git sees the neutral settings over the repository config, and ignores GIT_DIR of our environment', async () => {
    const repo = folder();
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['config', 'core.fsmonitor', '/evil/hook'], { cwd: repo });
    execFileSync('git', ['config', 'core.hooksPath', '/evil/hooks'], { cwd: repo });
    const elsewhere = folder();
    mkdirSync(path.join(elsewhere, 'sub'));
    execFileSync('git', ['init', '-q'], { cwd: elsewhere });
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(elsewhere, '.git');
    try {
      const read = async (args: string[]) => {
        const answer = await runSafeGit(repo, args, { maxBuffer: 65536, timeoutMs: 10_000 });
        expect(answer.ok).toBe(true);
        return answer.ok ? answer.stdout.toString('utf8').trim() : '';
      };
      expect(await read(['config', 'core.fsmonitor'])).toBe('');
      expect(await read(['config', 'core.hooksPath'])).toBe('/dev/null');
      expect(await read(['rev-parse', '--show-toplevel'])).toBe(repo);
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });

  it('says so when git is not on PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = folder();
    try {
      expect(await runSafeGit(folder(), ['--version'], { maxBuffer: 1024, timeoutMs: 1000 })).toEqual({
        ok: false,
        stderr: 'git was not found on PATH',
        tooLarge: false,
      });
    } finally {
      process.env.PATH = saved;
    }
  });
});
