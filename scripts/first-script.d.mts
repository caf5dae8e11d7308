import type { Plugin } from 'vite';

/** The packages the build keeps out of the page's first script (first-script.mjs). */
export const KEPT_OUT_OF_FIRST_SCRIPT: readonly string[];

/** The Vite plugin that fails the build when one of `keptOut` is in the first script, naming the imports. */
export function firstScriptGuard(keptOut?: readonly string[]): Plugin;
