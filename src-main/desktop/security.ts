/** The renderer's security settings and checks, kept free of Electron so they can be tested anywhere. */

/** The app is served from this privileged custom scheme, never from file://. */
export const APP_SCHEME = 'difftray';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const IPC_CALL_CHANNEL = 'difftray:call';
export const IPC_STATE_CHANNEL = 'difftray:state';

/** webPreferences for the one window: isolated, sandboxed, no Node, no remote content. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  } as const;
}

/** IPC is answered only for frames showing our own app. */
export function isTrustedSenderUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === 'app';
  } catch {
    return false;
  }
}

/** Navigation away from the app, and any new window, is refused. */
export function isAllowedNavigation(url: string): boolean {
  return isTrustedSenderUrl(url);
}
