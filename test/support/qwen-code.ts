/**
 * The real Qwen Code CLI (npm `@qwen-code/qwen-code`, pinned in test/real-clients), run offline in a
 * terminal it can draw on: in IDE mode its edits open as diffs in the IDE (here DiffTray) only while it
 * asks for approval in its interactive UI, so it runs in a tmux session of a private tmux server. With
 * IDE mode off (no `idePort`) its edits reach DiffTray through the hooks `difftray setup qwen` installs,
 * whose PermissionRequest fires only in that interactive UI too.
 *
 * Offline: its model is an OpenAI-compatible loopback stand-in (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
 * `OPENAI_MODEL`, with `security.auth.selectedType: "openai"` so no sign-in is offered). It finds DiffTray
 * by `QWEN_CODE_IDE_SERVER_PORT` and the lock file `<home>/.qwen/ide/<port>.lock` DiffTray writes.
 * `tools.approvalMode: "default"` ("Ask permissions"): Qwen's own default, "auto", lets a classifier
 * approve edits, and an approved edit never opens in the IDE.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INSTALL_HINT, REAL_CLIENTS_MODULES } from './real-clients';
import { startTerminal, terminalUnavailable, type Terminal } from './tmux-terminal';

/** The version these tests were written against; another one is skipped, saying so. */
export const QWEN_CODE_VERSION = '0.24.4';
/** The model name it sends the stand-in. */
export const QWEN_TEST_MODEL = 'qwen3-coder-plus';

export type QwenCodeCli = { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string };

/** Its `cli.js` in node_modules, or why it cannot run here. */
export function findQwenCode(): QwenCodeCli {
  const noTerminal = terminalUnavailable();
  if (noTerminal) return { skipReason: noTerminal };
  const packageDir = path.join(REAL_CLIENTS_MODULES, '@qwen-code', 'qwen-code');
  let version: string | undefined;
  try {
    version = (
      JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version?: string }
    ).version;
  } catch {
    return { skipReason: `@qwen-code/qwen-code is not installed ${INSTALL_HINT}` };
  }
  if (version !== QWEN_CODE_VERSION) {
    return { skipReason: `@qwen-code/qwen-code is ${version}, the tests expect ${QWEN_CODE_VERSION}` };
  }
  return { path: path.join(packageDir, 'cli.js') };
}

/** Qwen's approval modes (`tools.approvalMode`): "default" is "Ask permissions". */
export type QwenApprovalMode = 'plan' | 'default' | 'auto-edit' | 'auto' | 'yolo';

/**
 * `<home>/.qwen/settings.json`: the OpenAI-compatible provider, IDE mode (unless `ide` is false), asking
 * before edits (unless another `approvalMode` is given), nothing online.
 */
export function writeQwenSettings(
  home: string,
  { ide = true, approvalMode = 'default' }: { ide?: boolean; approvalMode?: QwenApprovalMode } = {},
): void {
  const dir = path.join(home, '.qwen');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
    model: { name: QWEN_TEST_MODEL },
    ide: { enabled: ide, hasSeenNudge: true },
    tools: { approvalMode },
    general: { enableAutoUpdate: false },
    // After a finished turn it would ask the model for a follow-up suggestion (a request with tools, which
    // the stand-in would take for a turn) and may offer a feedback dialog that takes keystrokes.
    ui: { enableFollowupSuggestions: false, enableUserFeedback: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
  writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

export interface QwenSessionOptions {
  /** Its `cli.js`, run with the Node running the tests. */
  cli: string;
  /** The folder it starts in: it connects only to an IDE whose workspace holds this folder. */
  workspace: string;
  /** HOME; its settings and the IDE lock files are under `<home>/.qwen`. */
  home: string;
  /** TMPDIR, and where the launcher script goes. */
  tmp: string;
  /** The model stand-in's base URL (`…/v1`). */
  baseUrl: string;
  /** DiffTray's bridge port, as its lock file is named; absent: IDE mode off (edits reach DiffTray through hooks). */
  idePort?: number;
  /** "default" ("Ask permissions") unless given. */
  approvalMode?: QwenApprovalMode;
  /** Added to its environment (and so its hooks'): DIFFTRAY_HOME. */
  env?: Record<string, string>;
  /** Runs once its settings are written and before it starts (the person's `difftray setup qwen`). */
  afterSettings?: (home: string) => void;
}

export interface QwenSession {
  /** What the terminal shows now. */
  screen(): string;
  /** Types `text` as is. */
  type: Terminal['type'];
  /** Presses keys by tmux's names ('Enter', 'Escape', 'BTab'...). */
  press: Terminal['press'];
  /** The last lines of its debug logs (IDE connection among them), for a failure message. */
  logTail(lines?: number): string;
  /** Ends the CLI and whatever it started (its process group), then the private tmux server. */
  stop(): Promise<void>;
}

export function startQwenSession(options: QwenSessionOptions): QwenSession {
  const { cli, workspace, home, tmp, baseUrl, idePort } = options;
  writeQwenSettings(home, { ide: idePort !== undefined, approvalMode: options.approvalMode });
  options.afterSettings?.(home);
  const env: Record<string, string> = {
    PATH: path.dirname(process.execPath) + path.delimiter + (process.env.PATH ?? '/usr/bin:/bin'),
    HOME: home,
    TMPDIR: tmp,
    OPENAI_API_KEY: 'stand-in-key',
    OPENAI_BASE_URL: baseUrl,
    OPENAI_MODEL: QWEN_TEST_MODEL,
    ...(idePort !== undefined && { QWEN_CODE_IDE_SERVER_PORT: String(idePort) }),
    NO_BROWSER: 'true',
    // Its debug log, `<home>/.qwen/debug/<session>.txt`, for failure messages (IDE connection among it).
    QWEN_DEBUG_LOG_FILE: '1',
    ...options.env,
  };
  const terminal = startTerminal({
    name: 'qwen',
    command: [process.execPath, cli],
    cwd: workspace,
    env,
    tmp,
  });
  return {
    screen: terminal.screen,
    type: terminal.type,
    press: terminal.press,
    logTail: (lines = 40) => debugLogTail(path.join(home, '.qwen'), lines),
    stop: terminal.stop,
  };
}

/** Tags of its debug log that only repeat (redraws, skills, a sleep inhibitor absent here). */
const CHATTER = /\[(RESIZE_REFLOW|SKILL_MANAGER|SLEEP_INHIBITOR|MEMORY_DISCOVERY|RULES_DISCOVERY)\]/;

/** The end of the newest file in its debug folder, without its chatter. */
function debugLogTail(qwenDir: string, lines: number): string {
  const debugDir = path.join(qwenDir, 'debug');
  let newest: string | undefined;
  try {
    const files = readdirSync(debugDir)
      .filter((name) => name.endsWith('.txt'))
      .map((name) => path.join(debugDir, name));
    newest = files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  } catch {
    return '(no debug log)';
  }
  if (!newest) return '(no debug log)';
  const own = readFileSync(newest, 'utf8')
    .split('\n')
    .filter((line) => !CHATTER.test(line));
  return own.slice(-lines).join('\n');
}
