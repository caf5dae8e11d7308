/**
 * The real Codex CLI (`@openai/codex`, pinned in test/real-clients), run as `codex exec "<prompt>"` in a
 * sandbox: its own HOME and CODEX_HOME, the model provider pointed at a loopback Responses API stand-in
 * (responses-stand-in.ts), nothing of the real user's configuration or environment read.
 *
 * Observed with 0.171.0 (docs/protocols/codex.md has the details):
 * - The native binary lives in the platform package (`@openai/codex-<platform>-<arch>`, itself an npm
 *   alias of `@openai/codex@<version>-<platform>-<arch>`) under `vendor/<target triple>/`; the wrapper's
 *   bin/codex.js only finds and starts it, so the tests start it directly.
 * - Offline it needs a model it knows (`gpt-5.5`; with an unknown model no apply_patch tool is offered)
 *   and a provider with `wire_api = "responses"` whose `env_key` variable is set.
 * - `codex exec` defaults to a read-only sandbox; `sandbox_mode = "danger-full-access"` lets apply_patch
 *   and shell commands write without bubblewrap (which `workspace-write` needs), and
 *   `approval_policy = "never"` keeps exec from waiting for an approval nobody can give.
 * - Hooks of `$CODEX_HOME/hooks.json` run only once trusted; `--dangerously-bypass-hook-trust` runs them
 *   untrusted for one invocation (tests only: DiffTray never forges the trust record).
 * - One `codex exec` of a few scripted turns takes 1–2 s here on an idle machine, up to 5 s on a busy one.
 */
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INSTALL_HINT, requireRealClient } from './real-clients';
import { runToExit } from './run-to-exit';

export const CODEX_VERSION = '0.171.0';
/** The variable named by the provider's `env_key`: Codex will not call a provider without it. */
export const STAND_IN_KEY_VARIABLE = 'DIFFTRAY_STANDIN_API_KEY';
const STAND_IN_API_KEY = 'sk-stand-in-0123456789';

export type CodexBinary = { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string };

/** As bin/codex.js maps platform and architecture to the platform package's target triple. */
const TARGET_TRIPLES: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};

/** The native binary of the platform package for this platform and architecture, or why there is none. */
export function findCodexBinary(): CodexBinary {
  const override = process.env.DIFFTRAY_TEST_CODEX_BIN;
  if (override)
    return isExecutable(override) ? { path: override } : { skipReason: `${override} is not executable` };
  const key = `${process.platform}-${process.arch}`;
  const triple = TARGET_TRIPLES[key];
  if (!triple) return { skipReason: `Codex CLI has no binary for ${key}` };
  const platformPackage = `@openai/codex-${key}`;
  let packageDir: string;
  try {
    packageDir = path.dirname(requireRealClient.resolve(`${platformPackage}/package.json`));
  } catch {
    return { skipReason: `${platformPackage} is not installed ${INSTALL_HINT}` };
  }
  // The platform package is published as `@openai/codex@<version>-<platform>-<arch>`.
  const version = (requireRealClient(`${platformPackage}/package.json`) as { version?: string }).version;
  if (version !== `${CODEX_VERSION}-${key}`) {
    return { skipReason: `${platformPackage} is ${version}, the tests expect ${CODEX_VERSION}-${key}` };
  }
  const binary = path.join(
    packageDir,
    'vendor',
    triple,
    'bin',
    process.platform === 'win32' ? 'codex.exe' : 'codex',
  );
  return isExecutable(binary) ? { path: binary } : { skipReason: `${binary} is missing or not executable` };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export type CodexSandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

export interface CodexHomeOptions {
  /** The stand-in's base URL (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  /** Default `danger-full-access`: writes without Codex's own (bubblewrap) sandbox. */
  sandboxMode?: CodexSandboxMode;
}

/** `$CODEX_HOME/config.toml`: the stand-in as the model provider, no prompts, no traffic elsewhere. */
export function writeCodexHome(codexHome: string, options: CodexHomeOptions): void {
  mkdirSync(codexHome, { recursive: true });
  const config = [
    'model = "gpt-5.5"',
    'model_provider = "standin"',
    'approval_policy = "never"',
    `sandbox_mode = ${tomlString(options.sandboxMode ?? 'danger-full-access')}`,
    'check_for_update_on_startup = false',
    'web_search = "disabled"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[history]',
    'persistence = "none"',
    '',
    '[model_providers.standin]',
    'name = "DiffTray stand-in"',
    `base_url = ${tomlString(options.baseUrl)}`,
    'wire_api = "responses"',
    `env_key = ${tomlString(STAND_IN_KEY_VARIABLE)}`,
    '',
  ];
  writeFileSync(path.join(codexHome, 'config.toml'), config.join('\n'));
}

/** One command hook of `$CODEX_HOME/hooks.json`. */
export interface CodexCommandHook {
  /** A regular expression over the tool name (`apply_patch`, `Bash` for the shell tool). */
  matcher: string;
  /** A shell command line. */
  command: string;
  timeoutSec?: number;
}

/**
 * `$CODEX_HOME/hooks.json` with these PreToolUse hooks, and commands for events about no tool
 * (`UserPromptSubmit`, `Stop`), each in a group without a matcher.
 */
export function writeCodexHooks(
  codexHome: string,
  preToolUse: CodexCommandHook[],
  toolless: Record<string, string> = {},
): void {
  const hooks = {
    hooks: {
      PreToolUse: preToolUse.map(({ matcher, command, timeoutSec = 30 }) => ({
        matcher,
        hooks: [{ type: 'command', command, timeout: timeoutSec }],
      })),
      ...Object.fromEntries(
        Object.entries(toolless).map(([event, command]) => [
          event,
          [{ hooks: [{ type: 'command', command, timeout: 30 }] }],
        ]),
      ),
    },
  };
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(path.join(codexHome, 'hooks.json'), JSON.stringify(hooks, null, 2));
}

/** TOML basic strings share JSON's escapes for everything a path or URL holds. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

export interface CodexExecOptions {
  binary: string;
  home: string;
  codexHome: string;
  /** The workspace Codex works in. */
  cwd: string;
  /** TMPDIR for Codex and its tools. */
  tmp: string;
  prompt: string;
  /** Runs hooks that are not trusted (tests only). */
  bypassHookTrust?: boolean;
  /** More arguments before the prompt. */
  extraArgs?: string[];
  /** More variables (e.g. DIFFTRAY_HOME for a hook that talks to the app). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** What had happened by a timeout (e.g. the stand-in's turns served), for the error message. */
  progress?: () => string;
}

export interface CodexExecResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The final message. */
  stdout: string;
  /** Codex's transcript: tool calls, hook runs, patches applied, warnings. */
  stderr: string;
  elapsedMs: number;
}

/**
 * Runs `codex exec` to its end in its own process group (killed afterwards with anything it left).
 * Stdin is closed, so exec reads no more input. Rejects, naming what did not happen, on a timeout.
 */
export async function runCodexExec(options: CodexExecOptions): Promise<CodexExecResult> {
  const { binary, prompt, timeoutMs = 60_000 } = options;
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--color',
    'never',
    ...(options.bypassHookTrust ? ['--dangerously-bypass-hook-trust'] : []),
    ...(options.extraArgs ?? []),
    '--',
    prompt,
  ];
  return runToExit('codex exec', binary, args, {
    cwd: options.cwd,
    env: { ...codexEnv(options), ...options.env },
    timeoutMs,
    ...(options.progress && { progress: options.progress }),
  });
}

/** Only what Codex needs: no OPENAI_*, CODEX_* or proxy variables of the real environment. */
export function codexEnv(options: Pick<CodexExecOptions, 'home' | 'codexHome' | 'tmp'>): NodeJS.ProcessEnv {
  const inherited = ['PATH', 'LANG', 'LC_ALL', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT'];
  const env: NodeJS.ProcessEnv = {};
  for (const key of inherited) if (process.env[key] !== undefined) env[key] = process.env[key];
  return {
    ...env,
    HOME: options.home,
    USERPROFILE: options.home,
    TMPDIR: options.tmp,
    CODEX_HOME: options.codexHome,
    [STAND_IN_KEY_VARIABLE]: STAND_IN_API_KEY,
  };
}
