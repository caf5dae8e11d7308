/**
 * The import graph of the app's own sources, as the TypeScript compiler resolves it, and the cycles in
 * it. Type-only imports count: a cycle of types still ties the modules together for a reader and for
 * the next refactor, even though the bundle drops it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Each file (absolute path) and the files among `roots` it imports, in the order written. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|tsx|mts)$/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => SOURCE.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.join(folder, name));
}

/** The compiler options of `tsconfig` (module resolution is all that matters here). */
function compilerOptions(tsconfig: string): ts.CompilerOptions {
  const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfig)).options;
}

/**
 * The graph of every source file under `roots`: imports, `import type`, `export … from`, `import()`
 * and `require()`, each resolved as tsc resolves it; imports that land outside `roots` (packages,
 * package.json) are left out.
 */
export function importGraph(roots: string[], tsconfig: string): ImportGraph {
  const options = compilerOptions(tsconfig);
  const inside = (file: string) => roots.some((root) => file.startsWith(root + path.sep));
  const graph: ImportGraph = new Map();
  for (const file of roots.flatMap(sourceFiles)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule;
      const target = resolved && path.resolve(resolved.resolvedFileName);
      if (target && inside(target) && !targets.includes(target)) targets.push(target);
    }
    graph.set(path.resolve(file), targets);
  }
  return graph;
}

/** The strongly connected components of more than one file, or of one file that imports itself. */
function tangles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) found.push(component);
    }
  }
  return found;
}

/** One cycle through `component`, from its first file (in path order) back to it. */
function cycleThrough(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  // Breadth-first from start, inside the component, until an edge leads back to start.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const target of graph.get(node) ?? []) {
      if (target === start) {
        const cycle = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) {
          cycle.splice(1, 0, at);
        }
        return [...cycle, start];
      }
      if (members.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Each cycle of imports in `graph`, one per tangle, as paths relative to `root` ("a → b → a"). */
export function importCycles(graph: ImportGraph, root: string): string[] {
  return tangles(graph)
    .map((component) =>
      cycleThrough(graph, component)
        .map((file) => path.relative(root, file).split(path.sep).join('/'))
        .join(' → '),
    )
    .sort();
}
