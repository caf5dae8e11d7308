/**
 * The real GitHub Copilot CLI (npm `@github/copilot`, pinned in test/real-clients; a native binary in
 * its platform package `@github/copilot-<platform>-<arch>`), run offline in a terminal it can draw on:
 * its `/ide` connection and its `open_diff` on edits live only in the interactive UI, so it runs in a
 * tmux session of a private tmux server, and the test types into it.
 *
 * Offline: `COPILOT_OFFLINE=true` turns off GitHub sign-in, telemetry, the GitHub MCP server and
 * updates, and needs a custom model provider: `COPILOT_PROVIDER_BASE_URL` (an OpenAI-compatible
 * endpoint, here the loopback stand-in) with `COPILOT_MODEL`. No GitHub token is needed or checked.
 * The binary unpacks its JavaScript into `COPILOT_CACHE_HOME` on first start (about 235 MB): the caller
 * gives a temp folder for it.
 */
import { accessSync, constants, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INSTALL_HINT, requireRealClient } from './real-clients';
import { startTerminal, terminalUnavailable } from './tmux-terminal';

/** The version these tests were written against; another one is skipped, saying so. */
export const COPILOT_CLI_VERSION = '1.0.102';

export type CopilotBinary =
  { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string };

export function findCopilotBinary(): CopilotBinary {
  const noTerminal = terminalUnavailable();
  if (noTerminal) return { skipReason: noTerminal };
  const override = process.env.DIFFTRAY_TEST_COPILOT_BIN;
  if (override)
    return isExecutable(override) ? { path: override } : { skipReason: `${override} is not executable` };
  const platformPackage = `@github/copilot-${platformKey()}`;
  let packageDir: string;
  try {
    // Its exports name only the binary ("."), so its package.json is read beside it.
    packageDir = path.dirname(requireRealClient.resolve(platformPackage));
  } catch {
    return { skipReason: `${platformPackage} is not installed ${INSTALL_HINT}` };
  }
  const version = (
    JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version?: string }
  ).version;
  if (version !== COPILOT_CLI_VERSION) {
    return { skipReason: `${platformPackage} is ${version}, the tests expect ${COPILOT_CLI_VERSION}` };
  }
  const binary = path.join(packageDir, 'copilot');
  return isExecutable(binary) ? { path: binary } : { skipReason: `${binary} is missing or not executable` };
}

/** As @github/copilot's loader names its platform packages: linux-x64, linuxmusl-x64, darwin-arm64, … */
function platformKey(): string {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}`;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  const musl = report !== undefined && report.header?.glibcVersionRuntime === undefined;
  return `${musl ? 'linuxmusl' : 'linux'}-${process.arch}`;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface CopilotSessionOptions {
  binary: string;
  /** The folder it starts in: it connects to the IDE whose lock file names this folder. */
  workspace: string;
  /** HOME; its copilot home (where it looks for IDE lock files) is `<home>/.copilot`. */
  home: string;
  /** TMPDIR, and where the launcher script and the CLI's log go. */
  tmp: string;
  /** COPILOT_CACHE_HOME: where it unpacks itself; shared by a file's tests so it unpacks once. */
  cacheHome: string;
  /** The model stand-in's base URL (`…/v1`). */
  baseUrl: string;
}

export interface CopilotSession {
  /** What the terminal shows now. */
  screen(): string;
  /** Types `text` and presses Enter. */
  submitPrompt(text: string): void;
  /** The last lines of its own debug log (IDE discovery and connection among them), for a failure message. */
  logTail(lines?: number): string;
  /**
   * Whether the CLI holds a selection of `file` from the IDE now: its log's last word on the IDE is
   * "IDE selection changed: <file> …" (logged once the selection is stored; a disconnect drops it).
   */
  holdsSelectionOf(file: string): boolean;
  /**
   * Whether the CLI waits for a prompt: its footer shows the key help, which a turn replaces with
   * "Working"; a prompt typed during a turn is queued, and a queued prompt carries no selection.
   */
  waitsForPrompt(): boolean;
  /** Ends the CLI and whatever it started (its process group), then the private tmux server. */
  stop(): Promise<void>;
}

/** The CLI's environment offline: HOME, its copilot home `<home>/.copilot`, the stand-in as its model. */
export function copilotEnv(
  options: Pick<CopilotSessionOptions, 'home' | 'tmp' | 'cacheHome' | 'baseUrl'>,
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmp,
    COPILOT_HOME: path.join(options.home, '.copilot'),
    COPILOT_CACHE_HOME: options.cacheHome,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: options.baseUrl,
    COPILOT_PROVIDER_API_KEY: 'stand-in-key',
    COPILOT_MODEL: 'gpt-4.1',
    COPILOT_AUTO_UPDATE: 'false',
  };
}

export function startCopilotSession(options: CopilotSessionOptions): CopilotSession {
  const { binary, workspace, home, tmp, cacheHome, baseUrl } = options;
  const logDir = path.join(tmp, 'copilot-logs');
  mkdirSync(logDir, { recursive: true });
  // The workspace trusted beforehand, as where the person has used the CLI before. Otherwise the CLI
  // learns the trust from DiffTray's lock file (isTrusted) once connected, reloads and reconnects: at
  // any moment of the first turn on loaded cores, closing its open diff and dropping a selection.
  const copilotHome = path.join(home, '.copilot');
  mkdirSync(copilotHome, { recursive: true });
  writeFileSync(path.join(copilotHome, 'config.json'), JSON.stringify({ trustedFolders: [workspace] }));
  const env = copilotEnv({ home, tmp, cacheHome, baseUrl });
  const args = ['--no-auto-update', '--no-custom-instructions', '--log-level', 'all', '--log-dir', logDir];
  const terminal = startTerminal({ name: 'copilot', command: [binary, ...args], cwd: workspace, env, tmp });
  /** Its own log lines, without the runtime's chatter (`[rust:…]`); undefined before it logs. */
  const ownLog = (): string[] | undefined => {
    const logs = readdirSync(logDir).filter((name) => name.endsWith('.log'));
    if (logs.length === 0) return undefined;
    return readFileSync(path.join(logDir, logs[0]!), 'utf8')
      .split('\n')
      .filter((line) => !line.includes('[rust:'));
  };
  return {
    screen: terminal.screen,
    submitPrompt: terminal.submit,
    logTail: (lines = 40) => ownLog()?.slice(-lines).join('\n') ?? '(no log)',
    holdsSelectionOf: (file) => {
      // 1.0.102 logs these as it stores a selection and as it drops its IDE connection (and the selection).
      const last = ownLog()?.findLast(
        (line) =>
          line.includes('IDE selection changed: ') ||
          line.includes('Disconnected from IDE MCP server') ||
          line.includes('IDE disconnected unexpectedly'),
      );
      return last?.includes(`IDE selection changed: ${file} [`) === true;
    },
    waitsForPrompt: () => {
      const screen = terminal.screen();
      return screen.includes('? help') && !screen.includes('Working');
    },
    stop: terminal.stop,
  };
}
