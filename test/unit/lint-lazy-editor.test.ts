/**
 * eslint/lazy-editor.js keeps Monaco out of the page's first script: a static import of Monaco or of a
 * view built on it is refused outside the lazily loaded modules, through ESLint itself with the
 * project's configuration (files named where they would live; none is written).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

async function lazyEditorErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: path.join(ROOT, file) });
  return result!.messages
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('Monaco stays out of the first script', () => {
  it.each([
    ['src-renderer/views/x.tsx', "import * as monaco from 'monaco-editor/editor/editor.api';"],
    ['src-renderer/views/x.tsx', "import 'monaco-editor/features/find/register';"],
    ['src-renderer/review/x.tsx', "import { monaco } from './monaco';"],
    ['src-renderer/views/x.tsx', "import { prepareDiffEditor } from '../review/diff-editor/kept-editor';"],
    ['src-renderer/review/x.tsx', "import { DiffEditor } from './diff-editor/DiffEditor';"],
    ['src-renderer/review/x.tsx', "import { ReadOnlyDiff } from './ReadOnlyDiff';"],
    ['src-renderer/review/x.tsx', "import { DiskDiff } from './DiskDiff';"],
    ['src-renderer/review/x.ts', "export { DiffEditor } from './editor-views';"],
  ])('%s: %s is refused', async (file, code) => {
    const errors = await lazyEditorErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/load after the first screen/);
  });

  it.each([
    ['src-renderer/review/x.tsx', "import type { monaco } from './monaco';"],
    ['src-renderer/review/x.tsx', "import type { DiffEditorProps } from './diff-editor/diff-editor-props';"],
    ['src-renderer/review/x.ts', "const views = () => import('./editor-views');"],
    ['src-renderer/review/diff-editor/x.ts', "import { monaco } from '../monaco';"],
    ['src-renderer/review/ReadOnlyDiff.tsx', "import { monaco } from './monaco';"],
    ['src-renderer/review/x.tsx', "import { DiffEditor } from './LazyEditorViews';"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await lazyEditorErrors(file, code)).toEqual([]);
  });
});
