/**
 * The headless UI's session cookie: set when the browser first loads the address DiffTray printed (with
 * its token), so the page can drop the token from the address bar and still load after a reload.
 *
 * Cookies are scoped by host, not port, so the name carries the port: two DiffTrays on 127.0.0.1 keep
 * their own. HttpOnly keeps it from scripts, SameSite=Strict from requests other sites start.
 */
import { tokensEqual } from '../loopback/auth';

export function sessionCookieName(port: number): string {
  return `difftray-ui-${port}`;
}

/** The Set-Cookie header for `secret`: for this browser session only (no Expires, no Max-Age). */
export function sessionCookieHeader(port: number, secret: string): string {
  return `${sessionCookieName(port)}=${secret}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Whether the Cookie header carries this server's cookie with `secret` (compared in constant time). */
export function hasSessionCookie(cookieHeader: string | undefined, port: number, secret: string): boolean {
  if (!cookieHeader) return false;
  const name = sessionCookieName(port);
  let found = false;
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    // Every cookie of that name is looked at: a stale one from an earlier run may come first.
    if (tokensEqual(pair.slice(equals + 1).trim(), secret)) found = true;
  }
  return found;
}
