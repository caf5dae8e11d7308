/** Where each supported CLI looks for us, derived from the environment as the CLIs derive it. */
import os from 'node:os';
import path from 'node:path';
import type { BridgeEndpoint, WsEndpoint } from './bridge-endpoint';

export function claudeLockDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'ide');
}

/**
 * OpenClaude (Gitlawb/openclaude, a Claude Code fork speaking the same IDE protocol) reads lock files
 * only from `<config home>/ide`, the config home being `OPENCLAUDE_CONFIG_DIR` if set and not empty,
 * else `~/.openclaude` (its src/utils/envUtils.ts getClaudeConfigHomeDir, src/utils/ide.ts
 * getIdeLockfilesPaths). It deliberately never reads CLAUDE_CONFIG_DIR or ~/.claude/ide
 * (Gitlawb/openclaude#1998; the ~/.claude/ide fallback of #1997 was closed). Other forks built from
 * the same source keep `join(<their config home>, 'ide')` under names of their own; none widely used
 * was found, so they are reached through the `extraLockFolders` setting.
 */
export function openClaudeLockDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(env.OPENCLAUDE_CONFIG_DIR || path.join(home, '.openclaude'), 'ide');
}

export function nexus3LockDir(home = os.homedir()): string {
  return path.join(home, '.nexus3', 'ide');
}

/** Gemini CLI lists `path.join(os.tmpdir(), 'gemini', 'ide')` for discovery files. */
export function geminiDiscoveryDir(tmpDir = os.tmpdir()): string {
  return path.join(tmpDir, 'gemini', 'ide');
}

/** Qwen Code's lock files: `${QWEN_HOME:-~/.qwen}/ide/<port>.lock`. */
export function qwenLockDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const qwenHome = env.QWEN_HOME ? path.resolve(env.QWEN_HOME) : path.join(home, '.qwen');
  return path.join(qwenHome, 'ide');
}

/**
 * Every endpoint with the CLIs' real locations by default. Tests pass a fake `home` and `tmpDir`, so
 * nothing they run touches the real ones.
 */
export function defaultEndpoints(
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
  tmpDir = os.tmpdir(),
): BridgeEndpoint[] {
  return [
    {
      transport: 'ws',
      protocol: 'claude-ide',
      displayName: 'Claude Code',
      authHeader: 'x-claude-code-ide-authorization',
      lockDir: claudeLockDir(env, home),
      extraLockDirs: [{ dir: openClaudeLockDir(env, home) }],
    },
    {
      transport: 'ws',
      protocol: 'nexus3-ide',
      displayName: 'NEXUS3',
      authHeader: 'x-nexus3-ide-authorization',
      lockDir: nexus3LockDir(home),
    },
    {
      transport: 'http',
      protocol: 'gemini-ide',
      displayName: 'Gemini CLI',
      discovery: 'gemini',
      dir: geminiDiscoveryDir(tmpDir),
    },
    {
      transport: 'http',
      protocol: 'qwen-ide',
      displayName: 'Qwen Code',
      // Qwen Code 0.24 names itself version 1.0.0 in MCP's initialize, whatever its own version.
      misreportedVersion: '1.0.0',
      discovery: 'qwen',
      dir: qwenLockDir(env, home),
    },
  ];
}

/**
 * Which of the user's `extraLockFolders` get Claude Code's lock file, resolved. Those folders are the
 * user's, so an existing one keeps its mode. A folder that already gets the lock file is not added
 * twice; one where another endpoint writes its own `<port>.lock` (NEXUS3's, Qwen Code's) is refused
 * with a warning, as the two files would have the same name.
 */
export function userLockDirs(
  endpoints: readonly BridgeEndpoint[],
  folders: readonly string[],
  warn: (message: string) => void = () => {},
): string[] {
  const claude = endpoints.find(
    (e): e is WsEndpoint => e.transport !== 'http' && e.protocol === 'claude-ide',
  );
  if (!claude) return [];
  const resolved = (dirs: readonly string[]) => new Set(dirs.map((dir) => path.resolve(dir)));
  const claudeDirs = resolved([claude.lockDir, ...(claude.extraLockDirs ?? []).map((extra) => extra.dir)]);
  const otherDirs = resolved(
    endpoints.filter((e) => e !== claude).map((e) => (e.transport === 'http' ? e.dir : e.lockDir)),
  );
  const added: string[] = [];
  for (const dir of folders.map((folder) => path.resolve(folder))) {
    if (claudeDirs.has(dir)) continue;
    if (otherDirs.has(dir)) {
      warn(`Ignoring extraLockFolders entry ${dir}: another client's lock file is written there`);
      continue;
    }
    claudeDirs.add(dir);
    added.push(dir);
  }
  return added;
}
