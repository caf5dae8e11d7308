/**
 * Makes this process look, to Gemini CLI's `IdeClient`, like Gemini CLI started inside the workspace
 * with DiffTray as its IDE. Nothing else is given to it: port and token come from the discovery file.
 */
import { existsSync } from 'node:fs';
import { vi } from 'vitest';
import type { TestRuntime } from './test-runtime';

/** What IdeClient reads from the environment; saved and restored. */
const ENV_KEYS = [
  'TMPDIR',
  'GEMINI_CLI_IDE_PID',
  'GEMINI_CLI_IDE_SERVER_PORT',
  'GEMINI_CLI_IDE_WORKSPACE_PATH',
  'GEMINI_CLI_IDE_AUTH_TOKEN',
  'GEMINI_CLI_IDE_SERVER_STDIO_COMMAND',
  'REMOTE_CONTAINERS',
] as const;

/** Returns the function that puts everything back. */
export function enterGeminiEnvironment(t: Pick<TestRuntime, 'tmpDir' | 'workspace'>): () => void {
  const saved = new Map<string, string | undefined>(ENV_KEYS.map((key) => [key, process.env[key]]));
  for (const key of ENV_KEYS) delete process.env[key];
  // IdeClient lists path.join(os.tmpdir(), 'gemini', 'ide'); os.tmpdir() follows TMPDIR.
  process.env.TMPDIR = t.tmpDir;
  // The discovery file is named after DiffTray's pid; DiffTray runs in this process. Gemini CLI would
  // otherwise walk its process tree, and with a single file matching its folder takes that one anyway.
  process.env.GEMINI_CLI_IDE_PID = String(process.pid);
  // Inside a container (this machine has /.dockerenv) IdeClient dials host.docker.internal unless it is
  // told the IDE shares its network, as in a dev container. Here DiffTray does.
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) process.env.REMOTE_CONTAINERS = 'true';
  // The CLI's working folder must be inside one of DiffTray's workspace folders.
  const cwd = vi.spyOn(process, 'cwd').mockReturnValue(t.workspace);
  return () => {
    cwd.mockRestore();
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
