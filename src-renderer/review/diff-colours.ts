/**
 * The colours Monaco paints under the review's text, named here rather than left to Monaco's built-in
 * 'vs' and 'vs-dark' so the contrast of a rejected line (test/unit/renderer/rejected-contrast.test.ts)
 * is computed from what is drawn. monaco.ts defines the two themes from these (named by theme.ts's monacoThemeFor); everything else (syntax
 * colours, widgets) is inherited from the base theme. The decision colours on top (--reject-bg, the
 * rejected text) are CSS tokens in styles.css.
 */
import type { ResolvedTheme } from '../state/theme';

export interface DiffThemeColours {
  /** The Monaco theme these extend. */
  base: 'vs' | 'vs-dark';
  /** Monaco colour ids and their values (#rrggbb or #rrggbbaa). */
  colors: {
    /** Plain text (Monaco's default token colour follows it). */
    'editor.foreground': string;
    'editor.background': string;
    /** Text may sit on these too, under the diff's tints (a click on a line number selects the line). */
    'editor.selectionBackground': string;
    'editor.inactiveSelectionBackground': string;
    'editorGutter.background': string;
    'editorLineNumber.foreground': string;
    /** The empty line after a final newline; Monaco's default (40% of the line numbers) is unreadable. */
    'editorLineNumber.dimmedForeground': string;
    'diffEditor.insertedLineBackground': string;
    'diffEditor.insertedTextBackground': string;
    'diffEditor.removedLineBackground': string;
    'diffEditor.removedTextBackground': string;
  };
}

export const DIFF_THEMES: Record<ResolvedTheme, DiffThemeColours> = {
  light: {
    base: 'vs',
    colors: {
      'editor.foreground': '#000000',
      'editor.background': '#ffffff',
      'editor.selectionBackground': '#add6ff',
      'editor.inactiveSelectionBackground': '#e5ebf1',
      'editorGutter.background': '#ffffff',
      'editorLineNumber.foreground': '#1f6a80',
      'editorLineNumber.dimmedForeground': '#1f6a80',
      'diffEditor.insertedLineBackground': '#9bb95533',
      'diffEditor.insertedTextBackground': '#9ccc2c40',
      'diffEditor.removedLineBackground': '#ff000033',
      'diffEditor.removedTextBackground': '#ff000033',
    },
  },
  dark: {
    base: 'vs-dark',
    colors: {
      'editor.foreground': '#e6edf3',
      'editor.background': '#0d1117',
      'editor.selectionBackground': '#1d3552',
      'editor.inactiveSelectionBackground': '#2d3239',
      'editorGutter.background': '#0d1117',
      'editorLineNumber.foreground': '#9ea5ae',
      'editorLineNumber.dimmedForeground': '#9ea5ae',
      // Monaco's own dark tints ('#9bb95533', '#9ccc2c33') stacked over a selection left 3.8:1.
      'diffEditor.insertedLineBackground': '#2ea04326',
      'diffEditor.insertedTextBackground': '#2ea04333',
      'diffEditor.removedLineBackground': '#ff000033',
      'diffEditor.removedTextBackground': '#ff000033',
    },
  },
};
