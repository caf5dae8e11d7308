/**
 * The app without Electron: the runtime (core, bridges, lock files) and the headless UI server, wired
 * so that `show_window` / `difftray open` open the person's browser from this process. The UI's address
 * (with its token) goes only to the opener and to whoever started DiffTray (main.ts prints it).
 */
import { startRuntime, type Runtime, type RuntimeOptions } from '../runtime';
import { HeadlessServer } from './headless-server';
import { systemBrowserOpener, throttledOpener, type BrowserOpener } from './open-browser';

export interface HeadlessAppOptions {
  runtime: RuntimeOptions;
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  /** Port of the UI server; 0 (default) picks a free one. */
  port?: number;
  /** Opens the person's browser; the platform's opener (xdg-open, open, the URL handler) by default. */
  openBrowser?: BrowserOpener;
  log?: (message: string) => void;
}

export interface HeadlessApp {
  runtime: Runtime;
  headless: HeadlessServer;
  /** Opens the UI in the person's browser, as `show_window` does (throttled alike). */
  show(): Promise<boolean>;
  close(): Promise<void>;
}

export async function startHeadlessApp(options: HeadlessAppOptions): Promise<HeadlessApp> {
  const runtime = await startRuntime(options.runtime);
  let headless: HeadlessServer;
  try {
    headless = await HeadlessServer.start({
      core: runtime.core,
      handler: runtime.handler,
      rendererDir: options.rendererDir,
      ...(options.port !== undefined && { port: options.port }),
      ...(options.log && { log: options.log }),
    });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const openBrowser = throttledOpener(options.openBrowser ?? systemBrowserOpener());
  const show = () => openBrowser(headless.url);
  runtime.native.setAppHooks({ openInBrowser: show });
  return {
    runtime,
    headless,
    show,
    close: async () => {
      await headless.close();
      await runtime.close();
    },
  };
}
