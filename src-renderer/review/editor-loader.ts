/**
 * Loads the views that draw with Monaco (editor-views.ts) after the page's first screen: the first
 * script then holds no Monaco, so the queue, History and Connections are on screen without waiting for
 * it. The load starts when the first screen has been painted and the page is idle (preloadEditor), or
 * at once when a review needs the editor first (useEditorViews). eslint/lazy-editor.js keeps static
 * imports of Monaco and of these views out of every other module.
 */
import editorSteps from 'virtual:editor-steps';
import { lazyModule, whenIdleAfterPaint, type ModuleLoad } from '../state/lazy-module';
import type * as EditorViewsModule from './editor-views';

export type EditorViews = typeof EditorViewsModule;

/**
 * `data-editor="ready"` on <html>: the editor has loaded and its diff editor is made. Tests and the
 * bench wait for it before timing what comes after.
 */
function markReady(): void {
  document.documentElement.dataset.editor = 'ready';
}

const nextTask = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));

/**
 * Monaco's code a step at a time, each in a task of its own (scripts/editor-steps.mjs), so the page
 * keeps answering while it loads; then the views, whose own code is small; then Monaco's theme (which
 * starts its services) and the diff editor, each in a task of its own too (monaco.ts, kept-editor.ts),
 * so the first view drawn only borrows the editor.
 */
async function importInSteps(): Promise<EditorViews> {
  for (const step of editorSteps) {
    await step();
    await nextTask();
  }
  const views = await import('./editor-views');
  await nextTask();
  // Starts Monaco's services, before any editor is made.
  views.followAppTheme();
  await nextTask();
  views.prepareDiffEditor();
  // The views are drawn in a task of their own, not in the one that made the editor.
  await nextTask();
  markReady();
  return views;
}

/**
 * The views, fetched and evaluated once. After a failed load (a chunk not served) the next call tries
 * again, though the browser may answer from its memory of the failure until the page is reloaded.
 */
const editorViews = lazyModule(importInSteps);

/** The views for a component that needs them now: loaded at once if the preload has not done it yet. */
export function useEditorViews(): ModuleLoad<EditorViews> {
  return editorViews.use();
}

/**
 * Starts loading the editor (its diff editor made ahead of need, kept-editor.ts) once the screen shown
 * now has been painted and the page is idle. Returns the function that cancels what has not started yet.
 */
export function preloadEditor(): () => void {
  return whenIdleAfterPaint(() => {
    editorViews.load().catch(() => {
      // A view that needs the editor says why it is missing.
    });
  });
}
