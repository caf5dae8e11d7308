/**
 * The real Gemini CLI (npm `@google/gemini-cli`, pinned in test/real-clients), run offline in a terminal
 * it can draw on: its IDE diffs open only in the interactive UI (in `-p` its policy engine turns "ask"
 * into "deny"), so it runs in a tmux session of a private tmux server, and the test types into it.
 *
 * Offline: `GEMINI_API_KEY=<any>` and `GOOGLE_GEMINI_BASE_URL=<the model stand-in>`; settings in
 * `<home>/.gemini/settings.json` switch on IDE mode, skip its nudge, fix the model and turn off folder
 * trust, updates and usage statistics. It finds DiffTray through `<TMPDIR>/gemini/ide/`. Inside a
 * container (`/.dockerenv`, `/run/.containerenv`) it would dial host.docker.internal instead of
 * 127.0.0.1 unless told the IDE shares its network: `REMOTE_CONTAINERS=1` (as in a dev container).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INSTALL_HINT, REAL_CLIENTS_MODULES } from './real-clients';
import { startTerminal, terminalUnavailable } from './tmux-terminal';
import { until } from './wait';

/** The version these tests were written against; another one is skipped, saying so. */
export const GEMINI_CLI_VERSION = '0.61.0';
/** The model named in settings, so no router picks one (the stand-in answers any). */
export const GEMINI_MODEL = 'gemini-2.5-flash';

/** Longer than the CLI's FAST_RETURN_TIMEOUT (30 ms), after which Enter sends rather than adds a line. */
const PASTE_WINDOW_MS = 150;

const PACKAGE_DIR = path.join(REAL_CLIENTS_MODULES, '@google', 'gemini-cli');

export type GeminiEntry = { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string };

/** The CLI's entry script for the interactive tests (tmux), or why they cannot run here. */
export function findGeminiCli(): GeminiEntry {
  const noTerminal = terminalUnavailable();
  return noTerminal ? { skipReason: noTerminal } : findGeminiEntry();
}

/** The CLI's entry script (what `gemini -p` needs, no terminal), or why it cannot run here. */
export function findGeminiEntry(): GeminiEntry {
  const manifest = path.join(PACKAGE_DIR, 'package.json');
  if (!existsSync(manifest)) return { skipReason: `@google/gemini-cli is not installed ${INSTALL_HINT}` };
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
  if (version !== GEMINI_CLI_VERSION) {
    return { skipReason: `@google/gemini-cli is ${version}, the tests expect ${GEMINI_CLI_VERSION}` };
  }
  const entry = path.join(PACKAGE_DIR, 'bundle', 'gemini.js');
  return existsSync(entry) ? { path: entry } : { skipReason: `${entry} is missing` };
}

/** Writes `<home>/.gemini/settings.json` as these tests need it; IDE mode on unless `ide` is false. */
export function writeGeminiSettings(home: string, { ide = true }: { ide?: boolean } = {}): void {
  const dir = path.join(home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const settings = {
    ide: { enabled: ide, hasSeenNudge: true },
    security: { folderTrust: { enabled: false }, auth: { selectedType: 'gemini-api-key' } },
    model: { name: GEMINI_MODEL },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
  };
  writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** Whether this process runs where Gemini CLI thinks it is in a container (and so dials the host). */
export function insideContainer(): boolean {
  return existsSync('/.dockerenv') || existsSync('/run/.containerenv');
}

export interface GeminiSessionOptions {
  entry: string;
  /** The folder it starts in: it connects to the IDE whose discovery file names this folder. */
  workspace: string;
  /** HOME, holding `.gemini/settings.json`. */
  home: string;
  /** TMPDIR: where it looks for discovery files (`<tmp>/gemini/ide`), and where the launcher goes. */
  tmp: string;
  /** The model stand-in's base URL. */
  baseUrl: string;
}

export interface GeminiSession {
  /** What the terminal shows now. */
  screen(): string;
  /**
   * Types `text`, waits until the prompt box shows it, then presses Enter: an Enter that comes within
   * 30 ms of typed characters is taken as part of a paste (a newline), not as sending. A `?` would open
   * the shortcuts panel instead of being typed, so prompts must not hold one.
   */
  submitPrompt(text: string): Promise<void>;
  /** Presses keys by tmux's names. */
  press(...keys: string[]): void;
  /** Ends the CLI and whatever it started (its process group), then the private tmux server. */
  stop(): Promise<void>;
}

/** Only what Gemini CLI needs: its HOME and TMPDIR, the stand-in, nothing of the real user's environment. */
export function geminiEnv({
  home,
  tmp,
  baseUrl,
}: Pick<GeminiSessionOptions, 'home' | 'tmp' | 'baseUrl'>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmp,
    GEMINI_API_KEY: 'stand-in-key',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    // No re-launch inside a sandbox; no browser opened for a sign-in.
    GEMINI_SANDBOX: 'false',
    NO_BROWSER: 'true',
    ...(insideContainer() && { REMOTE_CONTAINERS: '1' }),
  };
}

export function startGeminiSession(options: GeminiSessionOptions): GeminiSession {
  const { entry, workspace, home, tmp, baseUrl } = options;
  writeGeminiSettings(home);
  const terminal = startTerminal({
    name: 'gemini',
    command: [process.execPath, entry],
    cwd: workspace,
    env: geminiEnv({ home, tmp, baseUrl }),
    tmp,
  });
  return {
    screen: terminal.screen,
    submitPrompt: async (text) => {
      if (text.includes('?')) throw new Error(`Gemini CLI takes "?" as a shortcut: "${text}"`);
      terminal.type(text);
      await until(
        () => (terminal.screen().includes(text) ? true : undefined),
        `Gemini CLI to show "${text}"`,
        10_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n--- screen ---\n${terminal.screen()}`, { cause: error });
      });
      await new Promise((resolve) => setTimeout(resolve, PASTE_WINDOW_MS));
      terminal.press('Enter');
    },
    press: terminal.press,
    stop: terminal.stop,
  };
}
