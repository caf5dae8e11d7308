/** The file side of setup: real files in a temp folder. */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
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
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppApiHandler } from '../../../src-main/core/app-api-handler';
import { AppCore } from '../../../src-main/core/app-core';
import { updateHookSettings } from '../../../shared/claude-code/hook-settings';
import {
  BACKUP_DAYS,
  claudeConfigDir,
  ClaudeHooksSetupError,
  editedText,
} from '../../../src-main/core/setup/claude-hooks-setup';
import {
  applyAgentHooks,
  planAgentHooks,
  type AgentHooksContext,
} from '../../../src-main/core/setup/agent-setup';
import type { HookSetupOptions } from '../../../shared/hook-setup/hook-entries';
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

/** Claude Code's config folder and hook command, as `difftray setup claude-code` and the app take them. */
const contextOf = (target: { configDir: string; command: string }): AgentHooksContext => ({
  env: { CLAUDE_CONFIG_DIR: target.configDir },
  home: root,
  command: () => target.command,
});
const planClaudeHooks = (target: { configDir: string; command: string }, options: HookSetupOptions = {}) =>
  planAgentHooks('claude-code', contextOf(target), options);
const applyClaudeHooks = (
  target: { configDir: string; command: string },
  options: HookSetupOptions = {},
  now?: () => Date,
) => applyAgentHooks('claude-code', contextOf(target), options, now);

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

  it('backs the old file up with its mode, once a day, and keeps the mode and the indentation', () => {
    mkdirSync(configDir);
    const original = '{\n    "model": "opus"\n}\n';
    writeFileSync(settingsPath, original, { mode: 0o640 });
    const outcome = applyClaudeHooks(
      { configDir, command: COMMAND },
      {},
      () => new Date('2026-01-02T03:04:05.678Z'),
    );
    expect(outcome.backupPath).toBe(`${settingsPath}.difftray-backup-20260102`);
    expect(readFileSync(outcome.backupPath!, 'utf8')).toBe(original);
    expect(readFileSync(settingsPath, 'utf8')).toMatch(/^\{\n {4}"model": "opus",\n {4}"hooks"/);
    if (posix) {
      expect(mode(settingsPath)).toBe(0o640);
      expect(mode(outcome.backupPath!)).toBe(0o640);
    }
    // More changes the same day keep the day's first backup: the settings from before the first change.
    for (const options of [{ remove: true }, {}, { alsoTools: ['Task'] }, { remove: true }]) {
      const again = applyClaudeHooks(
        { configDir, command: COMMAND },
        options,
        () => new Date('2026-01-02T23:59:00Z'),
      );
      expect(again.backupPath).toBe(`${settingsPath}.difftray-backup-20260102`);
    }
    expect(readFileSync(settingsPath, 'utf8')).toBe(original);
    expect(readFileSync(`${settingsPath}.difftray-backup-20260102`, 'utf8')).toBe(original);
    // The next day gets its own.
    const nextDay = applyClaudeHooks(
      { configDir, command: COMMAND },
      {},
      () => new Date('2026-01-03T00:00:01Z'),
    );
    expect(nextDay.backupPath).toBe(`${settingsPath}.difftray-backup-20260103`);
    expect(readdirSync(configDir).sort()).toEqual([
      'settings.json',
      'settings.json.difftray-backup-20260102',
      'settings.json.difftray-backup-20260103',
    ]);
  });

  it(`keeps the newest ${BACKUP_DAYS} daily backups and removes older ones of its own pattern only`, () => {
    mkdirSync(configDir);
    writeFileSync(settingsPath, '{}\n');
    // Someone else's file with a similar name, and a link of the pattern, are never removed.
    writeFileSync(`${settingsPath}.difftray-backup-old`, 'mine');
    symlinkSync(settingsPath, `${settingsPath}.difftray-backup-20250101`);
    for (let day = 1; day <= 10; day++) {
      const at = new Date(Date.UTC(2026, 0, day, 12));
      applyClaudeHooks({ configDir, command: COMMAND }, day % 2 === 1 ? {} : { remove: true }, () => at);
    }
    const kept = readdirSync(configDir).filter((name) => /difftray-backup-2026/.test(name));
    expect(kept.sort()).toEqual(
      [4, 5, 6, 7, 8, 9, 10].map(
        (day) => `settings.json.difftray-backup-202601${String(day).padStart(2, '0')}`,
      ),
    );
    expect(readdirSync(configDir)).toContain('settings.json.difftray-backup-old');
    expect(readdirSync(configDir)).toContain('settings.json.difftray-backup-20250101');
  });

  it('keeps every byte it does not change: comments, layout, a number JSON would round', () => {
    mkdirSync(configDir);
    const original = [
      '{',
      "\t// The person's own notes.",
      '\t"model": "opus",   /* keep */',
      '\t"cleanupPeriodDays": 12345678901234567890,',
      '\t"hooks": {',
      '\t\t"Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]',
      '\t}',
      '}',
      '',
    ].join('\r\n');
    writeFileSync(settingsPath, original);
    applyClaudeHooks({ configDir, command: COMMAND });
    const installed = readFileSync(settingsPath, 'utf8');
    // What was there is there, byte for byte, in the same order; our Stop group follows the person's in
    // their list, and the lists that were not there come after it, laid out as the file is (tabs, CRLF).
    const kept = original.split('\r\n').slice(0, 5).join('\r\n');
    const group = (...lines: string[]) => ['\t\t\t{', ...lines.map((line) => `\t\t\t\t${line}`), '\t\t\t}'];
    const hook = (...fields: string[]) => [
      '"hooks": [',
      '\t{',
      ...fields.map((field, at) => `\t\t${field}${at < fields.length - 1 ? ',' : ''}`),
      '\t}',
      ']',
    ];
    const command = `"command": ${JSON.stringify(COMMAND)}`;
    expect(installed).toBe(
      [
        kept,
        '\t\t"Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] },',
        ...group(...hook('"type": "command"', command, '"timeout": 3600')).slice(0, -1),
        // The gap the person's list had before its `]` stays, so that removal can give it back.
        '\t\t\t} ],',
        '\t\t"PreToolUse": [',
        ...group(
          '"matcher": "Edit|MultiEdit|Write|Bash",',
          ...hook('"type": "command"', command, '"timeout": 3600', '"onFailure": "block"'),
        ),
        '\t\t],',
        '\t\t"UserPromptSubmit": [',
        ...group(...hook('"type": "command"', command, '"timeout": 30')),
        '\t\t]',
        '\t}',
        '}',
        '',
      ].join('\r\n'),
    );
    // Taking it out again gives back the very bytes.
    applyClaudeHooks({ configDir, command: COMMAND }, { remove: true });
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

  it.runIf(posix)('refuses a symlink to nothing, and leaves the link as it is', () => {
    mkdirSync(configDir);
    const target = path.join(root, 'dotfiles', 'claude-settings.json');
    symlinkSync(target, settingsPath);
    for (const attempt of [
      () => planClaudeHooks({ configDir, command: COMMAND }),
      () => applyClaudeHooks({ configDir, command: COMMAND }),
    ]) {
      expect(attempt).toThrow(ClaudeHooksSetupError);
      expect(attempt).toThrow(/is a symbolic link to a file that does not exist; it was not changed/);
    }
    expect(lstatSync(settingsPath).isSymbolicLink()).toBe(true);
    expect(readlinkSync(settingsPath)).toBe(target);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it.runIf(posix)('refuses a read-only settings file with a clear message, and writes nothing', () => {
    mkdirSync(configDir);
    writeFileSync(settingsPath, '{ "model": "opus" }\n');
    chmodSync(settingsPath, 0o444);
    expect(() => applyClaudeHooks({ configDir, command: COMMAND })).toThrow(
      `${settingsPath} is read-only; it was not changed (make it writable, e.g. chmod u+w, to set up)`,
    );
    expect(readFileSync(settingsPath, 'utf8')).toBe('{ "model": "opus" }\n');
    expect(mode(settingsPath)).toBe(0o444);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it.runIf(posix)(
    "a FIFO as settings.json: the window's hooks plan is refused at once, not hung",
    async () => {
      mkdirSync(configDir);
      execFileSync('mkfifo', [settingsPath]);
      // Were the read to wait for a writer, this one would give it settings after a while, and the plan
      // would come back as if from a file: the test fails rather than hanging.
      const writer = spawn('sh', ['-c', 'sleep 2; printf "{}" > "$1"', 'writer', settingsPath], {
        stdio: 'ignore',
      });
      try {
        const handler = createAppApiHandler(
          new AppCore([root], { agentHooks: contextOf({ configDir, command: COMMAND }) }),
        );
        await expect(handler('agentHooksSetup', { agent: 'claude-code', apply: false })).rejects.toThrow(
          /named pipe \(FIFO\), not a regular file/,
        );
        await expect(handler('agentHooksSetup', { agent: 'claude-code', apply: true })).rejects.toThrow(
          /named pipe/,
        );
        expect(lstatSync(settingsPath).isFIFO()).toBe(true);
      } finally {
        writer.kill('SIGKILL');
      }
    },
  );

  it('answers the app API: a plan, then the change; without a target, a clear error', async () => {
    const handler = createAppApiHandler(
      new AppCore([root], { agentHooks: contextOf({ configDir, command: COMMAND }) }),
    );
    const plan = await handler('agentHooksSetup', { agent: 'claude-code', apply: false });
    expect(plan).toEqual({
      agent: 'claude-code',
      settingsPath,
      upToDate: false,
      changes: [
        `Create ${settingsPath}`,
        `Add a PreToolUse hook for Edit|MultiEdit|Write|Bash: ${COMMAND} (timeout 3600 s)`,
        `Add a UserPromptSubmit hook: ${COMMAND} (timeout 30 s)`,
        `Add a Stop hook: ${COMMAND} (timeout 3600 s)`,
      ],
      commands: [COMMAND],
    });
    await handler('agentHooksSetup', { agent: 'claude-code', apply: true });
    expect(await handler('agentHooksSetup', { agent: 'claude-code', apply: false })).toEqual({
      agent: 'claude-code',
      settingsPath,
      upToDate: true,
      changes: [],
      commands: [COMMAND],
    });

    const without = createAppApiHandler(new AppCore([root]));
    await expect(without('agentHooksSetup', { agent: 'claude-code', apply: false })).rejects.toThrow(
      'not available',
    );
  });
});

describe('the text edits', () => {
  it('give the very settings the change computes, whatever the hooks were and however laid out', () => {
    const ours = fc.constantFrom(COMMAND, '"/old/node" "/old/cli.cjs" hook claude-code');
    const hook = fc.record({
      type: fc.constant('command'),
      command: fc.oneof(ours, fc.constantFrom('lint', './guard.sh')),
      timeout: fc.constantFrom(5, 3600),
    });
    const entry = fc.record(
      {
        matcher: fc.constantFrom('Edit', 'Bash|Edit', ''),
        hooks: fc.array(hook, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['hooks'] },
    );
    const settings = fc.record(
      {
        model: fc.string(),
        hooks: fc.record(
          {
            PreToolUse: fc.array(entry, { maxLength: 4 }),
            UserPromptSubmit: fc.array(entry, { maxLength: 2 }),
            Stop: fc.array(entry, { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(settings, fc.boolean(), fc.constantFrom(0, 2, 4, '\t'), (before, remove, indent) => {
        const text = JSON.stringify(before, null, indent) || '{}';
        const result = updateHookSettings(before, COMMAND, { remove });
        expect(JSON.parse(editedText(text, result))).toEqual(result.settings);
      }),
    );
  });

  it('taken out again, give back the very text the person had, however laid out (property)', () => {
    const hook = fc.record({
      type: fc.constant('command'),
      command: fc.constantFrom('lint', './guard.sh', 'say done'),
    });
    const entry = fc.record(
      { matcher: fc.constantFrom('Edit', ''), hooks: fc.array(hook, { minLength: 1, maxLength: 2 }) },
      { requiredKeys: ['hooks'] },
    );
    // An empty list or `hooks` object that was there before is the one thing removal does not restore.
    const list = fc.array(entry, { minLength: 1, maxLength: 2 });
    const settings = fc.record(
      {
        model: fc.string(),
        hooks: fc
          .record(
            { PreToolUse: list, PostToolUse: list, UserPromptSubmit: list, Stop: list },
            { requiredKeys: [] },
          )
          .filter((hooks) => Object.keys(hooks).length > 0),
      },
      { requiredKeys: [] },
    );
    const layout = fc.record({
      indent: fc.constantFrom(0, 2, 4, '\t'),
      eol: fc.constantFrom('\n', '\r\n'),
      finalEol: fc.boolean(),
    });
    const also = fc.array(fc.constantFrom('WebFetch', 'Task'), { maxLength: 2 });
    fc.assert(
      fc.property(settings, layout, also, (before, { indent, eol, finalEol }, alsoTools) => {
        const json = JSON.stringify(before, null, indent).replace(/\n/g, eol);
        const text = finalEol ? `${json}${eol}` : json;
        const installedText = editedText(text, updateHookSettings(before, COMMAND, { alsoTools }));
        const installed: unknown = JSON.parse(installedText);
        const removed = updateHookSettings(installed, COMMAND, { remove: true });
        expect(editedText(installedText, removed)).toBe(text);
      }),
    );
  });
});
