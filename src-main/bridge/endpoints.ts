/** Where each supported CLI looks for us, derived from the environment as the CLIs derive it. */
import os from 'node:os';
import path from 'node:path';
import type { BridgeEndpoint } from './bridge-server';

export function claudeLockDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'ide');
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
      discovery: 'qwen',
      dir: qwenLockDir(env, home),
    },
  ];
}
