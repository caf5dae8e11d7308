/** Where each supported CLI looks for us, derived from the environment as the CLIs derive it. */
import os from 'node:os';
import path from 'node:path';
import type { WsEndpoint } from './bridge-server';

export function claudeLockDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), 'ide');
}

export function nexus3LockDir(home = os.homedir()): string {
  return path.join(home, '.nexus3', 'ide');
}

export function defaultEndpoints(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): WsEndpoint[] {
  return [
    {
      protocol: 'claude-ide',
      displayName: 'Claude Code',
      authHeader: 'x-claude-code-ide-authorization',
      lockDir: claudeLockDir(env, home),
    },
    {
      protocol: 'nexus3-ide',
      displayName: 'NEXUS3',
      authHeader: 'x-nexus3-ide-authorization',
      lockDir: nexus3LockDir(home),
    },
  ];
}
