/** Who asks to connect without a token, as the window's prompt and the desktop notification both say it. */
import type { ConnectionRequest } from './app-api-access';

/** "pid 4242, /home/me/code/app"; for a client the platform could not identify, "identified by the name it gave". */
export function requesterFacts(request: Pick<ConnectionRequest, 'identifiedBy' | 'pid' | 'cwd'>): string {
  if (request.identifiedBy === 'name') return 'identified by the name it gave';
  return [`pid ${request.pid ?? '?'}`, ...(request.cwd ? [request.cwd] : [])].join(', ');
}
