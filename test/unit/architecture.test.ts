/**
 * docs/ARCHITECTURE.md's adapter file lists match the code, and every adapter folder is known to the
 * lint rule that keeps adapters apart.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../eslint/boundaries.js';

const ROOT = path.resolve(__dirname, '..', '..');
const BRIDGE = path.join(ROOT, 'src-main', 'bridge');
const doc = readFileSync(path.join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8').replace(/\s+/g, ' ');

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
});
