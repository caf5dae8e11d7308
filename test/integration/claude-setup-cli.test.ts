/**
 * `difftray setup claude-code` as a person runs it: the built `node dist/main/cli.cjs` against a temp
 * CLAUDE_CONFIG_DIR (and a temp HOME), reading what it prints and what it leaves on disk.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/temp';
import { BUILD_TIMEOUT_MS, buildMain, ROOT } from '../support/build';

const CLI = path.join(ROOT, 'dist', 'main', 'cli.cjs');

beforeAll(buildMain, BUILD_TIMEOUT_MS);

let root: string;
let cleanup: () => void;
let configDir: string;
let settingsPath: string;

beforeEach(() => {
  const temp = makeTempDir('claude-setup-cli');
  root = realpathSync(temp.dir);
  cleanup = temp.cleanup;
  configDir = path.join(root, 'claude-config');
  settingsPath = path.join(configDir, 'settings.json');
});
afterEach(() => cleanup());

/** Runs the command from an unrelated folder, as a person would from any terminal. */
function difftray(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return difftrayWithin(undefined, ...args);
}

/** As difftray(), killed after `timeoutMs` if given (code null then). */
function difftrayWithin(
  timeoutMs: number | undefined,
  ...args: string[]
): { code: number | null; stdout: string; stderr: string } {
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: home,
    env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: configDir },
    encoding: 'utf8',
    ...(timeoutMs !== undefined && { timeout: timeoutMs, killSignal: 'SIGKILL' as const }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A person's settings: their own PreToolUse hook and another event's, and other settings. */
const ORIGINAL =
  JSON.stringify(
    {
      model: 'opus',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/home/me/guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      },
    },
    null,
    2,
  ) + '\n';

const HOOK_COMMAND = `"${process.execPath}" "${CLI}" hook claude-code`;

function writeSettings(text: string): void {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(settingsPath, text);
}

const backups = () =>
  readdirSync(configDir).filter((name) => name.startsWith('settings.json.difftray-backup-'));

describe('difftray setup claude-code', () => {
  it('adds the hook, keeping everything else, and backs the old file up', () => {
    writeSettings(ORIGINAL);
    const run = difftray('setup', 'claude-code');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Add a PreToolUse hook for Edit|MultiEdit|Write|Bash: ${HOOK_COMMAND}`);
    expect(run.stdout).toContain(`Add a UserPromptSubmit hook: ${HOOK_COMMAND} (timeout 30 s)`);
    expect(run.stdout).toContain(`Add a Stop hook: ${HOOK_COMMAND} (timeout 3600 s)`);

    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    const before = JSON.parse(ORIGINAL);
    expect(settings).toEqual({
      ...before,
      hooks: {
        ...before.hooks,
        PreToolUse: [
          ...before.hooks.PreToolUse,
          {
            matcher: 'Edit|MultiEdit|Write|Bash',
            hooks: [{ type: 'command', command: HOOK_COMMAND, timeout: 3600, onFailure: 'block' }],
          },
        ],
        // The turn review's hooks: groups without a matcher, ours after the person's own Stop hook.
        Stop: [...before.hooks.Stop, { hooks: [{ type: 'command', command: HOOK_COMMAND, timeout: 3600 }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: HOOK_COMMAND, timeout: 30 }] }],
      },
    });
    expect(backups()).toHaveLength(1);
    expect(readFileSync(path.join(configDir, backups()[0]!), 'utf8')).toBe(ORIGINAL);
    expect(run.stdout).toContain(
      `The settings from before today's first change are in ${path.join(configDir, backups()[0]!)}`,
    );
  });

  it('run twice, changes nothing the second time: same bytes, no second backup', () => {
    writeSettings(ORIGINAL);
    expect(difftray('setup', 'claude-code').code).toBe(0);
    const afterFirst = readFileSync(settingsPath);

    const second = difftray('setup', 'claude-code');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`Claude Code is already set up (${settingsPath}): nothing changes\n`);
    expect(readFileSync(settingsPath).equals(afterFirst)).toBe(true);
    expect(backups()).toHaveLength(1);
  });

  it('--remove restores the original settings, other hooks kept', () => {
    writeSettings(ORIGINAL);
    expect(difftray('setup', 'claude-code', '--also', 'WebFetch').code).toBe(0);
    const removed = difftray('setup', 'claude-code', '--remove');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(
      'Remove the DiffTray PreToolUse hook for Edit|MultiEdit|Write|Bash|WebFetch',
    );
    expect(removed.stdout).toContain(`Remove the DiffTray Stop hook: ${HOOK_COMMAND}`);
    expect(removed.stdout).toContain(`Remove the DiffTray UserPromptSubmit hook: ${HOOK_COMMAND}`);
    expect(readFileSync(settingsPath, 'utf8')).toBe(ORIGINAL);

    const again = difftray('setup', 'claude-code', '--remove');
    expect(again.stdout).toContain('nothing to remove');
    expect(readFileSync(settingsPath, 'utf8')).toBe(ORIGINAL);
  });

  it('--dry-run prints the changes and writes nothing', () => {
    const fresh = difftray('setup', 'claude-code', '--dry-run');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain(`Create ${settingsPath}`);
    expect(fresh.stdout).toContain('Nothing written (--dry-run)');
    expect(() => readdirSync(configDir)).toThrow();

    writeSettings(ORIGINAL);
    expect(difftray('setup', 'claude-code', '--dry-run').code).toBe(0);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
    expect(readFileSync(settingsPath, 'utf8')).toBe(ORIGINAL);
  });

  it('refuses settings that are not valid JSON and leaves them untouched', () => {
    const broken = '{ "model": "opus", // a comment\n}\n';
    writeSettings(broken);
    const run = difftray('setup', 'claude-code');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^difftray: .*settings\.json is not valid JSON .*; fix it first, it was not changed\n$/,
    );
    expect(readFileSync(settingsPath, 'utf8')).toBe(broken);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it.runIf(process.platform !== 'win32')('a FIFO as settings.json: refused at once, not hung', () => {
    mkdirSync(configDir, { recursive: true });
    execFileSync('mkfifo', [settingsPath]);
    // Nothing ever writes to the FIFO: a read that waits for a writer is killed after 30 s (code null).
    const run = difftrayWithin(30_000, 'setup', 'claude-code');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^difftray: cannot read .*settings\.json: A named pipe \(FIFO\), not a regular file/,
    );
    expect(lstatSync(settingsPath).isFIFO()).toBe(true);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it('keeps a number too big for JSON.parse byte for byte, and comments', () => {
    const original = '{\n  // mine\n  "cleanupPeriodDays": 12345678901234567890,\n  "x": 1.0e+2\n}\n';
    writeSettings(original);
    expect(difftray('setup', 'claude-code').code).toBe(0);
    const installed = readFileSync(settingsPath, 'utf8');
    expect(installed).toContain(
      '  // mine\n  "cleanupPeriodDays": 12345678901234567890,\n  "x": 1.0e+2,\n  "hooks"',
    );
    expect(difftray('setup', 'claude-code', '--remove').code).toBe(0);
    expect(readFileSync(settingsPath, 'utf8')).toBe(original);
  });

  it.runIf(process.platform !== 'win32')('refuses a read-only settings file, saying so', () => {
    writeSettings(ORIGINAL);
    chmodSync(settingsPath, 0o444);
    const run = difftray('setup', 'claude-code');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `difftray: ${settingsPath} is read-only; it was not changed (make it writable, e.g. chmod u+w, to set up)\n`,
    );
    expect(readFileSync(settingsPath, 'utf8')).toBe(ORIGINAL);
    expect(readdirSync(configDir)).toEqual(['settings.json']);
  });

  it('names the known targets for an unknown one, and rejects a bad --also', () => {
    const unknown = difftray('setup', 'cursor');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'difftray: unknown setup target "cursor" (known: claude-code, codex, gemini, copilot, qwen)\n',
    );

    const badTool = difftray('setup', 'claude-code', '--also', 'Web Fetch');
    expect(badTool.code).toBe(2);
    expect(badTool.stderr).toBe('difftray: "Web Fetch" is not a tool name\n');
    expect(() => readdirSync(configDir)).toThrow();
  });
});
