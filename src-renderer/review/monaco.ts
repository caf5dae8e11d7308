/**
 * Monaco, fully local. We load the editor core, the diff editor and plain syntax colouring
 * (Monarch tokenizers) only: the language services (TypeScript, JSON, CSS, HTML) would start their own
 * workers and draw diagnostics over code under review, which is noise in a read-only diff.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/languages/definitions/register.all';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { monacoThemeFor, onThemeChange } from '../state/theme';
import { DIFF_THEMES } from './diff-colours';

// The only worker we need computes diffs; Vite bundles it as a same-origin module (worker-src 'self').
self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

export { monaco };

/** What every diff editor in the app shares: read-only sides, keyboard-friendly, cheap on big files. */
export const REVIEW_DIFF_OPTIONS: monaco.editor.IStandaloneDiffEditorConstructionOptions = {
  readOnly: true,
  originalEditable: false,
  automaticLayout: true,
  // Keep the layout predictable: no collapsing to inline on narrow windows unless asked.
  useInlineViewWhenSpaceIsLimited: false,
  // Let Tab leave the editor so keyboard users reach the hunk controls and the toolbar.
  tabFocusMode: true,
  scrollBeyondLastLine: false,
  minimap: { enabled: false },
  renderMarginRevertIcon: false,
  // Word-level highlights inside changed lines: the advanced algorithm computes them.
  diffAlgorithm: 'advanced',
  // Both would build a bracket tree of the whole document on the main thread.
  matchBrackets: 'never',
  guides: { bracketPairs: false, highlightActiveBracketPair: false },
};

let followingTheme = false;

/**
 * Defines the diff's colours (named so their contrast can be checked, diff-colours.ts) and follows the
 * app's theme (System / Light / Dark, theme.ts; setTheme applies to every editor). Not done as this
 * module is evaluated: the first setTheme starts Monaco's services, a long step of its own that the
 * loader (editor-loader.ts) runs in a task apart, before any editor is made.
 */
export function followAppTheme(): void {
  if (followingTheme) return;
  followingTheme = true;
  for (const theme of ['light', 'dark'] as const) {
    const { base, colors } = DIFF_THEMES[theme];
    monaco.editor.defineTheme(monacoThemeFor(theme), { base, inherit: true, rules: [], colors });
  }
  onThemeChange((theme) => monaco.editor.setTheme(monacoThemeFor(theme)));
}
