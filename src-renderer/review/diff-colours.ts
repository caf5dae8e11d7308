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
    'editor.background': string;
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
      'editor.background': '#ffffff',
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
      'editor.background': '#0d1117',
      'editorGutter.background': '#0d1117',
      'editorLineNumber.foreground': '#9ea5ae',
      'editorLineNumber.dimmedForeground': '#9ea5ae',
      'diffEditor.insertedLineBackground': '#9bb95533',
      'diffEditor.insertedTextBackground': '#9ccc2c33',
      'diffEditor.removedLineBackground': '#ff000033',
      'diffEditor.removedTextBackground': '#ff000033',
    },
  },
};
