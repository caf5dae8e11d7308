/**
 * The real app as a person runs it headless: runtime (core + bridge + lock files in a temp home) and
 * the headless server serving the built renderer. Only Electron is missing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HeadlessServer } from '../../src-main/headless/headless-server';
import { startTestRuntime, type TestRuntime, type TestRuntimeOptions } from './test-runtime';

export const RENDERER_DIR = path.resolve('dist/renderer');

export interface HeadlessApp extends TestRuntime {
  headless: HeadlessServer;
  url: string;
}

/** `options` go to the runtime (a short watch-mode quiet period, settings written before it starts). */
export async function startHeadlessApp(options: TestRuntimeOptions = {}): Promise<HeadlessApp> {
  if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
    throw new Error('dist/renderer is missing: run `npm run build` before the end-to-end tests');
  }
  const t = await startTestRuntime(options);
  const headless = await HeadlessServer.start({
    core: t.runtime.core,
    handler: t.runtime.handler,
    rendererDir: RENDERER_DIR,
  });
  return {
    ...t,
    headless,
    url: headless.url,
    close: async () => {
      await headless.close();
      await t.close();
    },
  };
}
