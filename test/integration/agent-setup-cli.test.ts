/**
 * `difftray setup <agent>` for Codex, Gemini CLI, Copilot CLI and Qwen Code as a person runs it: the built
 * `node dist/main/cli.cjs` with a temp HOME (and CODEX_HOME, COPILOT_HOME), reading what it prints and
 * what it leaves on disk. Claude Code's own cases are in claude-setup-cli.test.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codexTrustHash } from '../../src-main/core/setup/codex-trust';
import { makeTempDir } from '../support/temp';
import { BUILD_TIMEOUT_MS, buildMain, ROOT } from '../support/build';

const CLI = path.join(ROOT, 'dist', 'main', 'cli.cjs');
const RUN = `"${process.execPath}" "${CLI}"`;
const posix = process.platform !== 'win32';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

let temp: ReturnType<typeof makeTempDir>;
let root: string;

beforeEach(() => {
  temp = makeTempDir('agent-setup-cli');
  root = fs.realpathSync(temp.dir);
});
afterEach(() => temp.cleanup());

const home = () => path.join(root, 'home');

function difftray(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  fs.mkdirSync(home(), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home(),
    CODEX_HOME: path.join(root, 'codex'),
    COPILOT_HOME: path.join(root, 'copilot'),
  };
  for (const name of ['GEMINI_CLI_HOME', 'QWEN_HOME', 'CLAUDE_CONFIG_DIR']) delete env[name];
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: home(), env, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Case {
  agent: 'codex' | 'gemini' | 'copilot' | 'qwen';
  file: () => string;
  /** The person's file: their own hook on one of our events, another event's, another setting. */
  original: string;
  /** The file once set up, as parsed JSON. */
  added: unknown;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const guard = { type: 'command', command: '/home/me/guard.sh' };
const group = (matcher: string, words: string, timeout: number) => ({
  matcher,
  hooks: [{ type: 'command', command: `${RUN} ${words}`, timeout }],
});
/** The turn review's hooks: a group without a matcher (the prompt, the end of the turn). */
const turnGroup = (words: string, timeout: number) => ({
  hooks: [{ type: 'command', command: `${RUN} ${words}`, timeout }],
});
const copilotHook = (event: string, timeoutSec = 3600) => ({
  type: 'command',
  bash: `${RUN} hook copilot ${event}`,
  timeoutSec,
});

/** `original` with ours after the person's hooks, event by event. */
function plus(original: string, ours: Record<string, unknown[]>): unknown {
  const settings = JSON.parse(original) as { hooks: Record<string, unknown[]> };
  for (const [event, items] of Object.entries(ours)) {
    settings.hooks[event] = [...(settings.hooks[event] ?? []), ...items];
  }
  return settings;
}

const CODEX = json({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [guard] }], Stop: [{ hooks: [guard] }] },
});
const GEMINI = json({
  model: { name: 'gemini-2.5-pro' },
  hooks: { AfterTool: [{ matcher: 'x', hooks: [guard] }] },
});
const COPILOT = json({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './guard.sh' }] } });
const QWEN = json({
  tools: { approvalMode: 'default' },
  hooks: { PreToolUse: [{ matcher: 'edit', hooks: [guard] }] },
});
const QWEN_TOOLS = 'edit|write_file|run_shell_command';
const HOUR_MS = 3_600_000;

const CASES: Case[] = [
  {
    agent: 'codex',
    file: () => path.join(root, 'codex', 'hooks.json'),
    original: CODEX,
    added: plus(CODEX, {
      PreToolUse: [group('apply_patch|Bash', 'hook codex', 3600)],
      UserPromptSubmit: [turnGroup('hook codex', 30)],
      // After the person's own Stop hook.
      Stop: [turnGroup('hook codex', 3600)],
    }),
  },
  {
    agent: 'gemini',
    file: () => path.join(home(), '.gemini', 'settings.json'),
    original: GEMINI,
    added: plus(GEMINI, {
      BeforeTool: [group('replace|write_file|run_shell_command', 'hook gemini', HOUR_MS)],
      AfterTool: [group('replace|write_file|run_shell_command', 'hook gemini', HOUR_MS)],
      BeforeAgent: [turnGroup('hook gemini', 30_000)],
      AfterAgent: [turnGroup('hook gemini', HOUR_MS)],
    }),
  },
  {
    agent: 'copilot',
    file: () => path.join(root, 'copilot', 'hooks', 'difftray.json'),
    original: COPILOT,
    added: plus(COPILOT, {
      preToolUse: [copilotHook('preToolUse')],
      postToolUse: [copilotHook('postToolUse')],
      userPromptSubmitted: [copilotHook('userPromptSubmitted', 30)],
      agentStop: [copilotHook('agentStop')],
    }),
  },
  {
    agent: 'qwen',
    file: () => path.join(home(), '.qwen', 'settings.json'),
    original: QWEN,
    added: plus(QWEN, {
      PermissionRequest: [group(QWEN_TOOLS, 'hook qwen', HOUR_MS)],
      PreToolUse: [group(QWEN_TOOLS, 'hook qwen', HOUR_MS)],
      PostToolUse: [group('edit|write_file|run_shell_command', 'hook qwen', HOUR_MS)],
      UserPromptSubmit: [turnGroup('hook qwen', 30_000)],
      Stop: [turnGroup('hook qwen', HOUR_MS)],
    }),
  },
];

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const folderOf = (file: string) => fs.readdirSync(path.dirname(file)).sort();

describe.each(CASES)('difftray setup $agent', ({ agent, file, original, added }) => {
  it('creates the file 0600 in a 0700 folder; twice changes nothing; --remove undoes it', () => {
    const run = difftray('setup', agent);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Create ${file()}`);
    if (posix) {
      expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file())).mode & 0o777).toBe(0o700);
    }
    const once = fs.readFileSync(file());
    const again = difftray('setup', agent);
    const shown = file().startsWith(`${home()}/`) ? `~${file().slice(home().length)}` : file();
    expect(again.stdout).toContain(`is already set up (${shown}): nothing changes`);
    expect(fs.readFileSync(file()).equals(once)).toBe(true);

    expect(difftray('setup', agent, '--remove').code).toBe(0);
    if (agent === 'copilot') expect(fs.existsSync(file())).toBe(false);
    else expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual({});
  });

  it("adds its hooks after the person's, and --remove gives back the very bytes", () => {
    write(file(), original);
    const run = difftray('setup', agent);
    expect(run.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(file(), 'utf8'))).toEqual(added);
    expect(run.stdout).toContain("The settings from before today's first change are in");
    const installed = fs.readFileSync(file());
    expect(difftray('setup', agent).stdout).toContain('nothing changes');
    expect(fs.readFileSync(file()).equals(installed)).toBe(true);

    const removed = difftray('setup', agent, '--remove');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Remove the DiffTray');
    expect(fs.readFileSync(file(), 'utf8')).toBe(original);
    expect(difftray('setup', agent, '--remove').stdout).toContain('nothing to remove');
  });

  it('keeps comments and a number too big for JSON.parse byte for byte', () => {
    // Copilot's file keeps the version setup would add: removal takes out only what it can tell is ours.
    const version = agent === 'copilot' ? '  "version": 1,\n' : '';
    const text = `{\n  // mine\n${version}  "big": 12345678901234567890,\n  "x": 1.0e+2\n}\n`;
    write(file(), text);
    expect(difftray('setup', agent).code).toBe(0);
    const installed = fs.readFileSync(file(), 'utf8');
    expect(installed).toContain(`  // mine\n${version}  "big": 12345678901234567890,\n  "x": 1.0e+2,\n`);
    expect(difftray('setup', agent, '--remove').code).toBe(0);
    expect(fs.readFileSync(file(), 'utf8')).toBe(text);
  });

  it.runIf(posix)('a symlinked file stays a link; its target gets the hooks', () => {
    const target = path.join(root, 'dotfiles', `${agent}.json`);
    write(target, original);
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.symlinkSync(target, file());
    expect(difftray('setup', agent).code).toBe(0);
    expect(fs.lstatSync(file()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(target, 'utf8'))).toEqual(added);
    expect(difftray('setup', agent, '--remove').code).toBe(0);
    expect(fs.readFileSync(target, 'utf8')).toBe(original);
  });

  it.runIf(posix)('refuses a read-only file, and a dangling link, leaving them as they are', () => {
    write(file(), original);
    fs.chmodSync(file(), 0o444);
    const run = difftray('setup', agent);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `difftray: ${file()} is read-only; it was not changed (make it writable, e.g. chmod u+w, to set up)\n`,
    );
    expect(fs.readFileSync(file(), 'utf8')).toBe(original);
    expect(folderOf(file())).toEqual([path.basename(file())]);

    fs.rmSync(file());
    fs.symlinkSync(path.join(root, 'nowhere.json'), file());
    const refused = difftray('setup', agent);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is a symbolic link to a file that does not exist');
    expect(fs.lstatSync(file()).isSymbolicLink()).toBe(true);
  });

  it('--dry-run prints the change and writes nothing', () => {
    const fresh = difftray('setup', agent, '--dry-run');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain(`Create ${file()}`);
    expect(fresh.stdout).toContain('Nothing written (--dry-run)');
    expect(fs.existsSync(path.dirname(file()))).toBe(false);

    write(file(), original);
    expect(difftray('setup', agent, '--dry-run').stdout).toContain('Would change');
    expect(fs.readFileSync(file(), 'utf8')).toBe(original);
    expect(folderOf(file())).toEqual([path.basename(file())]);
  });

  it('--also is refused: it is for claude-code only', () => {
    const run = difftray('setup', agent, '--also', 'WebFetch');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'difftray: --also is for claude-code only (the other agents have their tools set)\n',
    );
    expect(fs.existsSync(file())).toBe(false);
  });
});

describe('difftray setup codex and trust', () => {
  it('says how to trust the hooks in Codex, until Codex has recorded the trust of each', () => {
    const run = difftray('setup', 'codex');
    expect(run.stdout).toContain('start `codex`, type /hooks and press t');
    expect(run.stdout).toContain('"Trust all and continue"');
    expect(difftray('setup', 'codex').stdout).toContain('type /hooks and press t');
    expect(run.stdout).not.toContain('sessions started from now on');
    // Codex writes config.toml itself: DiffTray has not.
    expect(fs.readdirSync(path.join(root, 'codex'))).toEqual(['hooks.json']);

    // Each hook trusted as Codex records it.
    const hooksFile = path.join(root, 'codex', 'hooks.json');
    const record = (event: string, key: string, trusted: { hooks: unknown[] }) =>
      `[hooks.state."${hooksFile}:${key}:0:0"]\n` +
      `trusted_hash = "${codexTrustHash(event, trusted, trusted.hooks[0])}"\n`;
    const preToolUse = record('PreToolUse', 'pre_tool_use', group('apply_patch|Bash', 'hook codex', 3600));
    const config = path.join(root, 'codex', 'config.toml');
    // Only the edit review's hook trusted (as before the turn review's were added): the step is still due.
    fs.writeFileSync(config, `[hooks.state]\n\n${preToolUse}`);
    expect(difftray('setup', 'codex').stdout).toContain('type /hooks and press t');
    // All three: nothing more to say.
    fs.writeFileSync(
      config,
      `[hooks.state]\n\n${preToolUse}` +
        record('UserPromptSubmit', 'user_prompt_submit', turnGroup('hook codex', 30)) +
        record('Stop', 'stop', turnGroup('hook codex', 3600)),
    );
    expect(difftray('setup', 'codex').stdout).toBe(
      `Codex CLI is already set up (${hooksFile}): nothing changes\n`,
    );
  });
});
