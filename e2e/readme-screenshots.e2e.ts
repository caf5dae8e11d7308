/**
 * The README's pictures, taken from a scene like a person's: a project folder "shop"; a release script on
 * DiffTray's own protocol whose change set was accepted (so History can undo it); Claude Code's edits
 * and the script's next change set waiting in the queue; one review decided hunk by hunk. Each picture
 * at 1024×700 and 1440×900, light and dark. Nothing on screen may show where the test's temp folders
 * are: the test fails if the page's text or a tooltip holds one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NATIVE_AUTH_HEADER, NATIVE_PROTOCOL_VERSION } from '../shared/native-protocol';
import { connectClaudeClient } from '../test/support/claude-client';
import { docsScreenshot, screenshot } from '../test/support/chromium';
import type { HeadlessApp } from '../test/support/headless-app';
import { JsonSocket, type JsonMessage } from '../test/support/json-socket';
import { waitForSnapshot } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';
import { diffReady, expectDecisions } from './support/review-page';

const session = appPageSession();

const VIEWPORTS = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** The pictures README.md shows (docs/<name>.png); the other sizes and themes stay in e2e/screenshots. */
const README_PICTURES = new Set([
  'queue-1440-light',
  'review-1024-dark',
  'history-undo-1024-light',
  'settings-1024-light',
]);

const CART = `export interface Line {
  sku: string;
  price: number;
  quantity: number;
}

export function subtotal(lines: Line[]): number {
  let sum = 0;
  for (const line of lines) sum += line.price * line.quantity;
  return sum;
}

export function itemCount(lines: Line[]): number {
  return lines.length;
}

export function isEmpty(lines: Line[]): boolean {
  return lines.length == 0;
}
`;
const CART_PROPOSED = `export interface Line {
  sku: string;
  /** In cents, so sums stay exact. */
  priceCents: number;
  quantity: number;
}

export function subtotal(lines: Line[]): number {
  return lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
}

export function itemCount(lines: Line[]): number {
  return lines.length;
}

export function isEmpty(lines: Line[]): boolean {
  return lines.length === 0;
}
`;
const CHECKOUT = `import { subtotal, type Line } from './cart';

export function total(lines: Line[], shipping: number): number {
  return subtotal(lines) + shipping;
}
`;
const CHECKOUT_PROPOSED = `import { subtotal, type Line } from './cart';

const FREE_SHIPPING_FROM = 5000;

export function total(lines: Line[], shipping: number): number {
  const sum = subtotal(lines);
  return sum >= FREE_SHIPPING_FROM ? sum : sum + shipping;
}
`;
const DEPLOY = '#!/bin/sh\nset -e\nnpm run build\nrsync -a dist/ shop@web:/srv/shop/\n';
const DEPLOY_ACCEPTED = DEPLOY.replace('npm run build', 'npm ci\nnpm test\nnpm run build');
const PACKAGE = '{\n  "name": "shop",\n  "version": "1.3.0",\n  "private": true\n}\n';
const PACKAGE_PROPOSED = PACKAGE.replace('1.3.0', '1.4.0');

/** A script on DiffTray's own protocol, as `difftray review` and release tooling are. */
async function releaseScript(app: HeadlessApp) {
  const { native } = app.runtime;
  const socket = await JsonSocket.open(native.port, { [NATIVE_AUTH_HEADER]: native.token });
  session.afterTest(() => socket.close());
  let next = 1;
  const request = (command: string, payload: unknown): Promise<JsonMessage> => {
    const message_id = `m${next++}`;
    socket.send({ protocol_version: NATIVE_PROTOCOL_VERSION, message_id, type: 'request', command, payload });
    return socket.waitFor(
      (m) => m.message_id === message_id && (m.type === 'response' || m.type === 'error_response'),
    );
  };
  expect((await request('hello', { client_name: 'release-script', client_version: '1.0' })).type).toBe(
    'response',
  );
  return {
    request,
    push: (command: string) => socket.waitFor((m) => m.type === 'push' && m.command === command),
  };
}

/** Where this test's temp folders are (the fake home's parent; any mkdtemp name): no person's session shows them. */
function tempPaths(app: HeadlessApp): string[] {
  return [path.dirname(app.home), path.join(os.tmpdir(), 'difftray-')];
}

/** Fails if the page's visible text or any tooltip names one of the test's temp folders. */
async function expectNoTempPaths(page: Page, app: HeadlessApp): Promise<void> {
  const shown = await page.evaluate(() => [
    document.body.innerText,
    ...Array.from(document.querySelectorAll('[title]'), (element) => element.getAttribute('title') ?? ''),
    ...Array.from(
      document.querySelectorAll('[aria-label]'),
      (element) => element.getAttribute('aria-label') ?? '',
    ),
  ]);
  const leaks = shown.filter((text) => tempPaths(app).some((temp) => text.includes(temp)));
  expect(leaks).toEqual([]);
}

/** The picture `name` at every size and theme; the README's ones go to docs/ (UPDATE_DOCS_SCREENSHOTS=1). */
async function takePictures(page: Page, app: HeadlessApp, name: string, ready: () => Promise<void>) {
  for (const viewport of VIEWPORTS) {
    for (const theme of THEMES) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      await page.locator(`html[data-theme="${theme}"]`).waitFor();
      await ready();
      // Monaco lays itself out again after a resize: two frames later the picture is settled.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      await expectNoTempPaths(page, app);
      const file = `${name}-${viewport.width}-${theme}`;
      await (README_PICTURES.has(file) ? docsScreenshot(page, file) : screenshot(page, file));
    }
  }
}

describe("the README's pictures", () => {
  it('a queue from two clients, a review decided hunk by hunk, History with an undo, and Settings', async () => {
    const { app, page } = await session.start({ workspaceInHome: 'shop' });
    const write = (name: string, text: string): string => {
      const file = path.join(app.workspace, name);
      writeFileSync(file, text);
      return file;
    };
    mkdirSync(path.join(app.workspace, 'src'), { recursive: true });
    const cart = write('src/cart.ts', CART);
    const checkout = write('src/checkout.ts', CHECKOUT);
    write('deploy.sh', DEPLOY);
    write('package.json', PACKAGE);

    // Earlier: the release script's change set, accepted and written by DiffTray (so History can undo it).
    const script = await releaseScript(app);
    await script.request('propose_change_set', {
      title: 'Run the tests before deploying',
      files: [{ path: 'deploy.sh', after: DEPLOY_ACCEPTED }],
    });
    await diffReady(page, 'Run the tests before deploying');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await script.push('change_set_result');

    // Now: Claude Code's two edits and the script's next change set wait.
    const claude = await connectClaudeClient(
      app.runtime.bridge.port,
      app.runtime.bridge.tokenFor('claude-ide'),
    );
    session.afterTest(() => claude.close().catch(() => {}));
    const answers = [
      claude.openDiff(cart, CART_PROPOSED, 'cart.ts (edit)'),
      claude.openDiff(checkout, CHECKOUT_PROPOSED, 'checkout.ts (edit)'),
    ];
    for (const answer of answers) answer.catch(() => {});
    await waitForSnapshot(app.runtime.core, (s) =>
      s.reviews.filter((r) => r.state === 'pending').length === 2 ? true : undefined,
    );
    void script.request('propose_change_set', {
      title: 'Release 1.4.0',
      files: [{ path: 'package.json', after: PACKAGE_PROPOSED }],
    });
    await waitForSnapshot(app.runtime.core, (s) =>
      s.reviews.filter((r) => r.state === 'pending').length === 3 ? true : undefined,
    );

    const queue = page.getByRole('navigation', { name: 'Review queue' });
    const queueReady = async () => {
      await queue.getByRole('button', { name: /Release 1\.4\.0/ }).waitFor();
      await page.locator('html[data-editor="ready"]').waitFor({ state: 'attached' });
      await diffReady(page, 'cart.ts');
    };
    await takePictures(page, app, 'queue', queueReady);

    await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
    await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
    await page.getByRole('button', { name: 'Accept hunk 3', exact: true }).click();
    await expectDecisions(page, ['accepted', 'rejected', 'accepted']);
    await takePictures(page, app, 'review', async () => {
      await queueReady();
      // Hunk 3 may be below the fold at 1024×700: those on screen show their decision, none undecided.
      await expectDecisions(page, ['accepted', 'rejected']);
      await expect
        .poll(() =>
          page.locator('[data-hunk]:not([data-decision="accepted"]):not([data-decision="rejected"])').count(),
        )
        .toBe(0);
    });

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByTestId('history');
    const undo = 'Undo changes on disk of Run the tests before deploying';
    await history.getByRole('button', { name: undo }).click();
    await takePictures(page, app, 'history-undo', async () => {
      await history.getByRole('group', { name: undo }).getByText('deploy.sh', { exact: true }).waitFor();
    });

    await history.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('tab', { name: 'Queue' }).click();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByTestId('settings');
    await takePictures(page, app, 'settings', async () => {
      await settings.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await settings.getByRole('group', { name: 'release-script' }).waitFor();
    });
  });
});
