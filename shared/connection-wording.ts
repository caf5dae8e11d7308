/** Who asks to connect without a token, as the window's prompt and the desktop notification both say it. */
import type { ConnectionRequest } from './app-api/access';

/**
 * "Clio (pid 4242, /home/me/code/app) wants to connect"; for a client the platform could not identify,
 * "Clio (identified by the name it gave) wants to connect".
 */
export function connectionPromptTitle(request: ConnectionRequest): string {
  const facts =
    request.identifiedBy === 'name'
      ? 'identified by the name it gave'
      : [`pid ${request.pid ?? '?'}`, ...(request.cwd ? [request.cwd] : [])].join(', ');
  return `${request.name} (${facts}) wants to connect`;
}
