/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, pinned in test/real-clients), run as
 * `claude -p "<prompt>"` in a sandbox: its own HOME and CLAUDE_CONFIG_DIR, the model API pointed at a
 * loopback stand-in, nothing of the real user's configuration or environment read.
 *
 * Observed with 2.1.197:
 * - The native binary lives in the platform package (`@anthropic-ai/claude-code-<platform>-<arch>[-musl]`);
 *   the wrapper's bin/claude.exe is a placeholder unless its postinstall ran, so it is not used.
 * - `-p` needs no `.claude.json` at all with ANTHROPIC_API_KEY set (no onboarding, key or trust prompt).
 *   The one written here also lets an interactive run start without prompts: `hasCompletedOnboarding`,
 *   the key's last 20 characters in `customApiKeyResponses.approved`, and
 *   `projects[<cwd>].hasTrustDialogAccepted`.
 * - PreToolUse hooks in `$CLAUDE_CONFIG_DIR/settings.json` run in `-p` mode. With no hook decision, `-p`
 *   refuses an Edit ("Claude requested permissions to write to <file>, but you haven't granted it yet.")
 *   and a Bash command that writes a file ("… was blocked. For security, …"); `--permission-mode default`
 *   states that mode whatever settings say.
 * - One `-p` run of a few scripted turns takes about 0.6 s here.
 */
import { runToExit } from './run-to-exit';
import { accessSync, constants, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ContextPlacement } from './anthropic-stand-in';
import { INSTALL_HINT, requireRealClient } from './real-clients';
import { makeTempDir } from './temp';

/** The Claude Code versions the tests run, newest first: the latest pinned, and the one before it kept. */
export const CLAUDE_CODE_VERSIONS = ['2.1.332', '2.1.197'] as const;
export type ClaudeCodeVersion = (typeof CLAUDE_CODE_VERSIONS)[number];
export const CLAUDE_CODE_LATEST: ClaudeCodeVersion = CLAUDE_CODE_VERSIONS[0];
/** The wrapper package each version is installed as in test/real-clients (older ones under an alias). */
const WRAPPER_PACKAGE: Record<ClaudeCodeVersion, string> = {
  '2.1.332': '@anthropic-ai/claude-code',
  '2.1.197': 'claude-code-2.1.197',
};
/** Where each version puts a PreToolUse hook's additionalContext in its next request to the model. */
export const HOOK_CONTEXT_PLACEMENT: Record<ClaudeCodeVersion, ContextPlacement> = {
  '2.1.332': 'system-message',
  '2.1.197': 'beside-tool-result',
};
const STAND_IN_API_KEY = 'sk-ant-stand-in-0123456789abcdefghijklmnopqrstuvwxyz';

export type ClaudeBinary = { version: ClaudeCodeVersion } & (
  { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string }
);

/**
 * The native binary of `version`'s platform package for this platform and architecture, or why there is
 * none. The platform package is resolved from the version's own wrapper, as its install placed it (an
 * aliased wrapper gets its own nested copy). DIFFTRAY_TEST_CLAUDE_BIN replaces the latest version's.
 */
export function findClaudeBinary(version: ClaudeCodeVersion = CLAUDE_CODE_LATEST): ClaudeBinary {
  const override = process.env.DIFFTRAY_TEST_CLAUDE_BIN;
  if (override && version === CLAUDE_CODE_LATEST) {
    return isExecutable(override)
      ? { version, path: override }
      : { version, skipReason: `${override} is not executable` };
  }
  const wrapper = WRAPPER_PACKAGE[version];
  let requireFromWrapper: NodeJS.Require;
  try {
    requireFromWrapper = createRequire(requireRealClient.resolve(`${wrapper}/package.json`));
  } catch {
    return { version, skipReason: `${wrapper} is not installed ${INSTALL_HINT}` };
  }
  const platformPackage = `@anthropic-ai/claude-code-${platformKey()}`;
  let packageDir: string;
  try {
    packageDir = path.dirname(requireFromWrapper.resolve(`${platformPackage}/package.json`));
  } catch {
    return { version, skipReason: `${platformPackage} (for ${wrapper}) is not installed ${INSTALL_HINT}` };
  }
  const found = (requireFromWrapper(`${platformPackage}/package.json`) as { version?: string }).version;
  if (found !== version) {
    return { version, skipReason: `${packageDir} is ${found}, the tests expect ${version}` };
  }
  const binary = path.join(packageDir, process.platform === 'win32' ? 'claude.exe' : 'claude');
  return isExecutable(binary)
    ? { version, path: binary }
    : { version, skipReason: `${binary} is missing or not executable` };
}

/** As the wrapper names its platform packages: linux-x64, linux-x64-musl, darwin-arm64, win32-x64, … */
function platformKey(): string {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}`;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  const musl = report !== undefined && report.header?.glibcVersionRuntime === undefined;
  return `linux-${process.arch}${musl ? '-musl' : ''}`;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ClaudeSandbox {
  /** The folder Claude Code runs in (real path). */
  workspace: string;
  home: string;
  configDir: string;
  tmp: string;
  /** Writes `$CLAUDE_CONFIG_DIR/settings.json`. */
  writeSettings(settings: unknown): void;
  cleanup(): void;
}

/** Temp HOME, CLAUDE_CONFIG_DIR (with `.claude.json`) and workspace for one test file. */
export function makeClaudeSandbox(prefix = 'claude'): ClaudeSandbox {
  const temp = makeTempDir(prefix);
  const root = realpathSync(temp.dir);
  const [workspace, home, tmp] = ['workspace', 'home', 'tmp'].map((name) => path.join(root, name)) as [
    string,
    string,
    string,
  ];
  const configDir = path.join(home, '.claude');
  for (const dir of [workspace, home, tmp, configDir]) mkdirSync(dir, { recursive: true });
  writeClaudeState(configDir, workspace);
  return {
    workspace,
    home,
    configDir,
    tmp,
    writeSettings: (settings) =>
      writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify(settings, null, 2)),
    cleanup: temp.cleanup,
  };
}

/** `.claude.json`: onboarding done, the stand-in key approved, `workspace` trusted. */
export function writeClaudeState(configDir: string, workspace: string): void {
  const state = {
    hasCompletedOnboarding: true,
    // Claude Code stores an approved key by its last 20 characters.
    customApiKeyResponses: { approved: [STAND_IN_API_KEY.slice(-20)], rejected: [] },
    projects: { [workspace]: { hasTrustDialogAccepted: true } },
  };
  writeFileSync(path.join(configDir, '.claude.json'), JSON.stringify(state, null, 2));
}

export interface ClaudePrintOptions {
  binary: string;
  sandbox: Pick<ClaudeSandbox, 'workspace' | 'home' | 'configDir' | 'tmp'>;
  /** The stand-in's base URL. */
  baseUrl: string;
  prompt: string;
  /** More arguments after `-p <prompt>` (e.g. `--ide`). */
  args?: string[];
  /** More variables (e.g. DIFFTRAY_HOME for a hook that talks to the app). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** What had happened by a timeout (e.g. the stand-in's turns served), for the error message. */
  progress?: () => string;
}

export interface ClaudePrintResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/**
 * Runs `claude -p` to its end in its own process group (killed afterwards with anything it left, such
 * as a hook still running). Rejects, naming what did not happen, if it has not exited in `timeoutMs`.
 */
export async function runClaudePrint(options: ClaudePrintOptions): Promise<ClaudePrintResult> {
  const { binary, sandbox, baseUrl, prompt, timeoutMs = 30_000 } = options;
  const args = ['-p', prompt, '--permission-mode', 'default', ...(options.args ?? [])];
  return runToExit('claude -p', binary, args, {
    cwd: sandbox.workspace,
    env: { ...claudeEnv(sandbox, baseUrl), ...options.env },
    timeoutMs,
    ...(options.progress && { progress: options.progress }),
  });
}

/** Only what Claude Code needs: no ANTHROPIC_*, CLAUDE_* or proxy variables of the real environment. */
export function claudeEnv(sandbox: ClaudePrintOptions['sandbox'], baseUrl: string): NodeJS.ProcessEnv {
  const inherited = ['PATH', 'LANG', 'LC_ALL', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT'];
  const env: NodeJS.ProcessEnv = {};
  for (const key of inherited) if (process.env[key] !== undefined) env[key] = process.env[key];
  return {
    ...env,
    HOME: sandbox.home,
    USERPROFILE: sandbox.home,
    TMPDIR: sandbox.tmp,
    CLAUDE_CONFIG_DIR: sandbox.configDir,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: STAND_IN_API_KEY,
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}
