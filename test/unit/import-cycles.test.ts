/**
 * No two modules of the app import each other, directly or around a loop, type-only imports included
 * (docs/ARCHITECTURE.md, "Who may import whom"). The graph is the TypeScript compiler's resolution of
 * every import in shared/, src-main/ and src-renderer/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../support/import-graph';
import { makeTempDir } from '../support/temp';

const ROOT = path.resolve(__dirname, '..', '..');
const TSCONFIG = path.join(ROOT, 'tsconfig.json');

describe('import cycles', () => {
  it('shared/, src-main/ and src-renderer/ have none', () => {
    const roots = ['shared', 'src-main', 'src-renderer'].map((folder) => path.join(ROOT, folder));
    const graph = importGraph(roots, TSCONFIG);
    // The graph really is the app's: hundreds of files, not an empty walk.
    expect(graph.size).toBeGreaterThan(300);
    expect(importCycles(graph, ROOT)).toEqual([]);
  });

  describe('the finder', () => {
    const temp = makeTempDir('import-cycles');
    afterAll(temp.cleanup);
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(temp.dir, file)), { recursive: true });
      writeFileSync(path.join(temp.dir, file), text);
    };

    it('names a cycle of type-only imports, one of re-exports, and an import of itself', () => {
      write('src/store.ts', "import { line } from './status/line';\nexport type Store = { n: number };\n");
      write('src/status/line.ts', "import { pause } from '../keys/pause';\nexport const line = pause;\n");
      write(
        'src/keys/pause.ts',
        "import type { Store } from '../store';\nexport const pause = (s: Store) => s;\n",
      );
      write('src/a.ts', "export * from './b';\nexport const a = 1;\n");
      write('src/b.ts', "export { a } from './a';\n");
      write('src/self.ts', "export type { Self } from './self';\nexport type Self = 1;\n");
      write('src/leaf.ts', "import type { Store } from './store';\nexport type Leaf = Store;\n");
      write(
        'tsconfig.json',
        JSON.stringify({ compilerOptions: { moduleResolution: 'Bundler', module: 'ESNext' } }),
      );

      const graph = importGraph([path.join(temp.dir, 'src')], path.join(temp.dir, 'tsconfig.json'));
      expect(importCycles(graph, temp.dir)).toEqual([
        'src/a.ts → src/b.ts → src/a.ts',
        'src/keys/pause.ts → src/store.ts → src/status/line.ts → src/keys/pause.ts',
        'src/self.ts → src/self.ts',
      ]);
    });
  });
});
