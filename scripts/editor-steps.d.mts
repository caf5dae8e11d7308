import type { Plugin } from 'vite';

/** How many steps Monaco's code is evaluated in (editor-steps.mjs). */
export const EDITOR_STEPS: number;

/** The Vite plugin that provides `virtual:editor-steps` and `virtual:editor-step/<k>` from the module graph of `entry`. */
export function editorSteps(entry: string): Plugin;
