/**
 * A real CLI in a terminal it can draw on, for the clients whose IDE connection and diffs live only in
 * their interactive UI (Claude Code's `--ide`, Gemini CLI and Qwen Code in IDE mode, Copilot CLI's
 * `/ide`): one tmux session on a private tmux server (`-L <unique socket>`, no config file), the CLI
 * started by a launcher with `env -i` and only the environment given, so nothing of the real user's
 * tokens or settings reaches it. The test reads the screen and types into it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TerminalOptions {
  /** What the session is called, in the launcher's file name and failure messages. */
  name: string;
  /** The program and its arguments. */
  command: string[];
  /** The folder it starts in. */
  cwd: string;
  /**
   * Its whole environment (PATH, HOME... are not inherited); TERM and LANG are the terminal's own
   * (xterm-256color, C.UTF-8) unless given.
   */
  env: Record<string, string>;
  /** Where the launcher script goes. */
  tmp: string;
  columns?: number;
  rows?: number;
}

export interface Terminal {
  /** What the terminal shows now. */
  screen(): string;
  /** Types `text` as is (no key names). */
  type(text: string): void;
  /** Presses keys by tmux's names: 'Enter', 'Escape', 'BTab' (shift+tab), 'C-c'... */
  press(...keys: string[]): void;
  /** Types `text` and presses Enter. */
  submit(text: string): void;
  /** Ends the program and whatever it started (its process group), then the private tmux server. */
  stop(): Promise<void>;
}

/** Why a terminal cannot be had here, or undefined when it can. */
export function terminalUnavailable(): string | undefined {
  if (process.platform === 'win32') return 'real CLIs are driven through tmux, which Windows lacks';
  if (spawnSync('tmux', ['-V']).status !== 0) return 'tmux is not installed';
  return undefined;
}

export function startTerminal(options: TerminalOptions): Terminal {
  const { name, command, cwd, tmp } = options;
  const env = { TERM: 'xterm-256color', LANG: 'C.UTF-8', ...options.env };
  const launcher = path.join(tmp, `${name}-launch.sh`);
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${shellQuote(value)}`);
  writeFileSync(
    launcher,
    `#!/bin/sh\ncd ${shellQuote(cwd)} || exit 1\nexec env -i ${assignments.join(' ')} ${command.map(shellQuote).join(' ')}\n`,
  );
  chmodSync(launcher, 0o700);

  const socket = `difftray-${name}-${randomUUID()}`;
  const tmux = (...tmuxArgs: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...tmuxArgs], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const size = [String(options.columns ?? 200), String(options.rows ?? 50)];
  tmux('new-session', '-d', '-s', name, '-x', size[0]!, '-y', size[1]!, launcher);
  // The pane's process (the launcher exec'd into the CLI) leads its own process group.
  const pid = Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim());

  return {
    screen: () => {
      try {
        return tmux('capture-pane', '-p', '-t', name);
      } catch {
        return '(the tmux session is gone)';
      }
    },
    type: (text) => void tmux('send-keys', '-t', name, '-l', text),
    press: (...keys) => void tmux('send-keys', '-t', name, ...keys),
    submit: (text) => {
      tmux('send-keys', '-t', name, '-l', text);
      tmux('send-keys', '-t', name, 'Enter');
    },
    stop: async () => {
      signalGroup(pid, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (signalGroup(pid, 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      signalGroup(pid, 'SIGKILL');
      try {
        tmux('kill-server');
      } catch {
        // Already gone with its last session.
      }
    },
  };
}

/** Sends `signal` to the process group led by `pid`; false once no process is left in it. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
