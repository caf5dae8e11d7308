/**
 * docs/ARCHITECTURE.md's adapter file lists match the code, every adapter folder is known to the
 * lint rule that keeps adapters apart, and the doc's "may import" table is the lint config's.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../eslint/boundaries.js';
import { HEADER, mayImportRows } from '../../scripts/architecture-table.mjs';

const ROOT = path.resolve(__dirname, '..', '..');
const BRIDGE = path.join(ROOT, 'src-main', 'bridge');
const docText = readFileSync(path.join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
const doc = docText.replace(/\s+/g, ' ');

/** The cells of the first table in the doc's section `heading`, row by row (the --- row left out). */
function tableUnder(heading: string): string[][] {
  const section = docText.split(/^## /m).find((part) => part.startsWith(heading)) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

/** `name/` (`a.ts`, `b/`, ...) as the document lists each adapter's files. */
function documentedLayouts(): Map<string, string[]> {
  const layouts = new Map<string, string[]>();
  for (const match of doc.matchAll(/`([a-z-]+)\/` \(((?:`[^`]+`(?:, |; [^)]*)?)+)\)/g)) {
    // Files come before any `;` (what follows it is prose).
    const files = match[2]!.split(';')[0]!;
    layouts.set(
      match[1]!,
      [...files.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    );
  }
  return layouts;
}

/** Every .ts file under `folder`, at any depth. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(folder, name));
}

describe('docs/ARCHITECTURE.md', () => {
  it('lists every adapter, and each file it names exists', () => {
    const adapters = readdirSync(BRIDGE).filter((name) => statSync(path.join(BRIDGE, name)).isDirectory());
    const layouts = documentedLayouts();
    expect([...layouts.keys()].sort()).toEqual(adapters.sort());
    for (const [adapter, files] of layouts) {
      for (const file of files.filter((f) => !f.startsWith('shared/'))) {
        expect(existsSync(path.join(BRIDGE, adapter, file)), `${adapter}/${file}`).toBe(true);
      }
      // Every adapter has the two parts the "Adding a protocol" list starts with.
      expect(files).toContain('endpoint.ts');
    }
  });

  it('every adapter folder is one the lint rule keeps apart from the others', () => {
    const adapters = readdirSync(BRIDGE).filter((name) => statSync(path.join(BRIDGE, name)).isDirectory());
    expect([...ADAPTERS].sort()).toEqual(adapters.sort());
  });

  it('no adapter reaches into AppCore: the core is only turned into a ClientPort ("Adding a protocol")', () => {
    const reachIns: string[] = [];
    const namesAppCore: string[] = [];
    for (const file of typeScriptFiles(BRIDGE)) {
      const text = readFileSync(file, 'utf8');
      const name = path.relative(ROOT, file);
      for (const match of text.matchAll(/\bcore\.[a-zA-Z_]+/g)) reachIns.push(`${name}: ${match[0]}`);
      if (/\bAppCore\b/.test(text) && !/\bclientPort\(options\.core\)/.test(text)) namesAppCore.push(name);
    }
    expect(reachIns).toEqual([]);
    expect(namesAppCore).toEqual([]);
  });

  it('"Who may import whom" is the table eslint/boundaries.js prints (node scripts/architecture-table.mjs)', () => {
    expect(tableUnder('Who may import whom')).toEqual([[...HEADER], ...mayImportRows()]);
  });
});
