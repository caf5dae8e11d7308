import { describe, it, expect } from 'vitest';
import type { ReviewItem, ReviewState } from '../../shared/app-api';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  isAllowedNavigation,
  isTrustedSenderUrl,
  secureWebPreferences,
} from '../../src-main/desktop/security';

function review(state: ReviewState, id: string = state): ReviewItem {
  return {
    id,
    client: { id: 'c', name: 'Claude Code', protocol: 'claude-ide', connectedAt: 0, connected: true },
    title: 't',
    createdAt: 0,
    state,
    files: [],
    canUndo: false,
  };
}

// The tray's model: test/unit/desktop/tray-model.test.ts.

describe('isTrustedSenderUrl', () => {
  it('has the expected app URL constants', () => {
    expect(APP_SCHEME).toBe('difftray');
    expect(APP_ORIGIN).toBe('difftray://app');
    expect(APP_ENTRY_URL).toBe('difftray://app/index.html');
  });

  it.each([
    'difftray://app/index.html',
    'difftray://app/',
    'difftray://app/assets/index-abc.js',
    APP_ENTRY_URL,
  ])('accepts %s', (url) => {
    expect(isTrustedSenderUrl(url)).toBe(true);
    expect(isAllowedNavigation(url)).toBe(true);
  });

  it.each([
    'file:///work/main/dist/renderer/index.html',
    'http://127.0.0.1/index.html',
    'http://127.0.0.1:5173/index.html',
    'http://localhost/',
    'https://app/index.html',
    'difftray://evil/',
    'difftray://evil/index.html',
    'difftray://app.evil/index.html',
    'difftray://evilapp/index.html',
    'difftray://app:8080/index.html',
    'difftray:app/index.html',
    'difftray:///index.html',
    'about:blank',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
    'devtools://devtools/bundled/inspector.html',
    'garbage',
    'app/index.html',
    '',
  ])('refuses %j', (url) => {
    expect(isTrustedSenderUrl(url)).toBe(false);
    expect(isAllowedNavigation(url)).toBe(false);
  });

  it('refuses undefined', () => {
    expect(isTrustedSenderUrl(undefined)).toBe(false);
  });
});

describe('secureWebPreferences', () => {
  it('isolates, sandboxes and disables Node', () => {
    const prefs = secureWebPreferences('/app/preload.cjs');
    expect(prefs.preload).toBe('/app/preload.cjs');
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
  });

  it('has no key that would weaken isolation', () => {
    const prefs: Record<string, unknown> = secureWebPreferences('/p');
    for (const key of ['nodeIntegrationInSubFrames', 'enableRemoteModule', 'experimentalFeatures']) {
      expect(prefs[key] === undefined || prefs[key] === false).toBe(true);
    }
  });
});

describe('arrivalNotices', () => {
  it('announces only reviews that are new and pending', async () => {
    const { arrivalNotices } = await import('../../src-main/desktop/arrival-notices');
    const old = { ...review('pending', 'r1'), title: 'a.ts' };
    const fresh = { ...review('pending', 'r2'), title: 'b.ts', description: 'rename x' };
    const endedFresh = review('cancelled', 'r3');
    expect(
      arrivalNotices({ version: 2, added: [fresh, endedFresh], changed: [{ id: old.id, title: 'a2.ts' }] }),
    ).toEqual([{ reviewId: 'r2', title: 'Claude Code proposes a change', body: 'b.ts — rename x' }]);
    expect(arrivalNotices({ version: 3, changed: [{ id: fresh.id, canUndo: true }] })).toEqual([]);
  });
});
