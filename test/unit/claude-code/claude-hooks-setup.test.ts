/** The file side of setup: real files in a temp folder. */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppApiHandler } from '../../../src-main/core/app-api-handler';
import { AppCore } from '../../../src-main/core/app-core';
import {
  applyClaudeHooks,
  claudeConfigDir,
  ClaudeHooksSetupError,
  planClaudeHooks,
} from '../../../src-main/core/claude-hooks-setup';
import { makeTempDir } from '../../support/temp';

const COMMAND = '"/usr/bin/node" "/opt/difftray/cli.cjs" hook claude-code';
const posix = process.platform !== 'win32';

let root: string;
let cleanup: () => void;
let configDir: string;
let settingsPath: string;

beforeEach(() => {
  const temp = makeTempDir('claude-setup');
  root = realpathSync(temp.dir);
  cleanup = temp.cleanup;
  configDir = path.join(root, 'claude');
  settingsPath = path.join(configDir, 'settings.json');
});
afterEach(() => cleanup());

const mode = (file: string) => statSync(file).mode & 0o777;

describe('Claude Code hooks setup on disk', () => {
  it('finds the settings in $CLAUDE_CONFIG_DIR, else ~/.claude', () => {
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/c' }, '/home/me')).toBe('/c');
    expect(claudeConfigDir({}, '/home/me')).toBe(path.join('/home/me', '.claude'));
  });

  it('creates a missing folder 0700 and file 0600, with no backup', () => {
    const plan = planClaudeHooks({ configDir, command: COMMAND });
    expect(plan.changes[0]).toBe(`Create ${settingsPath}`);
    const outcome = applyClaudeHooks({ configDir, command: COMMAND });
    expect(outcome.backupPath).toBeUndefined();
    expect(JSON.parse(readFileSync(settingsPath, 'utf8')).hooks.PreToolUse[0].hooks[0].command).toBe(COMMAND);
    if (posix) {
      expect(mode(configDir)).toBe(0o700);
      expect(mode(settingsPath)).toBe(0o600);
    }
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it('backs the old file up with its mode, keeps the mode and the indentation', () => {
    mkdirSync(configDir);
    const original = '{\n    "model": "opus"\n}\n';
    writeFileSync(settingsPath, original, { mode: 0o640 });
    const outcome = applyClaudeHooks(
      { configDir, command: COMMAND },
      {},
      () => new Date('2026-01-02T03:04:05.678Z'),
    );
    expect(outcome.backupPath).toBe(`${settingsPath}.difftray-backup-20260102T030405Z`);
    expect(readFileSync(outcome.backupPath!, 'utf8')).toBe(original);
    expect(readFileSync(settingsPath, 'utf8')).toMatch(/^\{\n {4}"model": "opus",\n {4}"hooks"/);
    if (posix) {
      expect(mode(settingsPath)).toBe(0o640);
      expect(mode(outcome.backupPath!)).toBe(0o640);
    }
    // Removing at the same second keeps the first backup and makes another.
    const removed = applyClaudeHooks(
      { configDir, command: COMMAND },
      { remove: true },
      () => new Date('2026-01-02T03:04:05Z'),
    );
    expect(removed.backupPath).toBe(`${settingsPath}.difftray-backup-20260102T030405Z-1`);
    expect(readFileSync(settingsPath, 'utf8')).toBe(original);
  });

  it('refuses a file that is not JSON and leaves it as it is', () => {
    mkdirSync(configDir);
    writeFileSync(settingsPath, '{ "model": "opus", }');
    expect(() => applyClaudeHooks({ configDir, command: COMMAND })).toThrow(ClaudeHooksSetupError);
    expect(() => planClaudeHooks({ configDir, command: COMMAND })).toThrow(/is not valid JSON/);
    expect(readFileSync(settingsPath, 'utf8')).toBe('{ "model": "opus", }');
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it.runIf(posix)('writes through a symlinked settings.json, which stays a symlink', () => {
    const dotfiles = path.join(root, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(configDir);
    writeFileSync(path.join(dotfiles, 'claude-settings.json'), '{}\n');
    symlinkSync(path.join(dotfiles, 'claude-settings.json'), settingsPath);
    applyClaudeHooks({ configDir, command: COMMAND });
    expect(lstatSync(settingsPath).isSymbolicLink()).toBe(true);
    expect(readlinkSync(settingsPath)).toBe(path.join(dotfiles, 'claude-settings.json'));
    expect(readFileSync(path.join(dotfiles, 'claude-settings.json'), 'utf8')).toContain('hook claude-code');
    expect(readdirSync(dotfiles)).toEqual(['claude-settings.json']);
  });

  it('answers the app API: a plan, then the change; without a target, a clear error', async () => {
    const handler = createAppApiHandler(
      new AppCore([root], { claudeHooks: { configDir, command: COMMAND } }),
    );
    const plan = await handler('claudeHooksSetup', { apply: false });
    expect(plan).toEqual({
      settingsPath,
      upToDate: false,
      changes: [
        `Create ${settingsPath}`,
        `Add a PreToolUse hook for Edit|MultiEdit|Write|Bash: ${COMMAND} (timeout 3600 s)`,
      ],
      command: COMMAND,
    });
    await handler('claudeHooksSetup', { apply: true });
    expect(await handler('claudeHooksSetup', { apply: false })).toEqual({
      settingsPath,
      upToDate: true,
      changes: [],
      command: COMMAND,
    });

    const without = createAppApiHandler(new AppCore([root]));
    await expect(without('claudeHooksSetup', { apply: false })).rejects.toThrow('not available');
  });
});
