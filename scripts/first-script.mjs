// The page's first script (the entry chunk and the chunks it imports statically) is what the browser
// must fetch, compile and evaluate before the queue can be drawn. Some packages have no business there:
// Monaco is loaded after the first screen (src-renderer/review/editor-loader.ts), and zod's schemas
// are main's to check calls with, the window only needs their types (shared/app-api/client.ts). One
// value import in the wrong place would put them back silently, so the build fails instead, naming the
// chain of imports that brought the package in.
import path from 'node:path';

/** Packages kept out of the first script. */
export const KEPT_OUT_OF_FIRST_SCRIPT = ['monaco-editor', 'zod'];

const packageOf = (id) => {
  const at = id.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (at === -1) return undefined;
  const rest = id.slice(at + '/node_modules/'.length).split(path.sep);
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
};

/** The chunks the browser loads before the entry runs: the entry and its static imports, transitively. */
function firstScriptChunks(bundle) {
  const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set();
  const visit = (chunk) => {
    if (!chunk || seen.has(chunk)) return;
    seen.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk);
  return [...seen];
}

/**
 * The shortest chain of static imports from the entry to a module of package `name`, through modules of
 * the first script only, as short module names ending at the package's first module.
 */
function importChain(context, entries, name, inFirstScript) {
  const cameFrom = new Map(entries.map((entry) => [entry, null]));
  const queue = [...entries];
  while (queue.length > 0) {
    const id = queue.shift();
    if (packageOf(id) === name) {
      const chain = [];
      for (let at = id; at !== null; at = cameFrom.get(at)) chain.unshift(path.relative(process.cwd(), at));
      return chain.join(' → ');
    }
    for (const next of context.getModuleInfo(id)?.importedIds ?? []) {
      // A package's index that only re-exports is in no chunk: the package's modules are followed anyway.
      if (cameFrom.has(next) || !(inFirstScript.has(next) || packageOf(next) === name)) continue;
      cameFrom.set(next, id);
      queue.push(next);
    }
  }
  return 'reached through a chain of imports not found';
}

export function firstScriptGuard(keptOut = KEPT_OUT_OF_FIRST_SCRIPT) {
  return {
    name: 'difftray-first-script-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const problems = [];
      const chunks = firstScriptChunks(bundle);
      const inFirstScript = new Set(chunks.flatMap((chunk) => chunk.moduleIds));
      const entries = chunks
        .filter((chunk) => chunk.isEntry && chunk.facadeModuleId)
        .map((chunk) => chunk.facadeModuleId);
      const found = new Set([...inFirstScript].map(packageOf).filter((name) => keptOut.includes(name)));
      for (const name of found) {
        problems.push(`${name} is in the first script: ${importChain(this, entries, name, inFirstScript)}`);
      }
      if (problems.length > 0) {
        this.error(
          `${problems.join('\n')}\nImport it only from modules loaded later, or import its types only ` +
            '(see scripts/first-script.mjs).',
        );
      }
    },
  };
}
