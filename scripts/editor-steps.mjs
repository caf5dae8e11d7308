// Monaco's code, evaluated in steps (vite.config.ts, src-renderer/review/editor-loader.ts). A module
// graph is evaluated in one task however it is split into chunks, and Monaco's takes 200–300 ms on a
// quiet machine: a page that evaluates it at once stops answering for that long. This plugin orders
// Monaco's modules as the browser evaluates them (depth first, dependencies before the module) and cuts
// that order into EDITOR_STEPS runs of about equal size; `virtual:editor-step/<k>` imports run k, and
// `virtual:editor-steps` is the list of functions that import each step. The loader runs them one after
// another, a task apart, so each step evaluates only its own run.
import { build } from 'esbuild';
import path from 'node:path';

export const EDITOR_STEPS = 8;
const LIST = 'virtual:editor-steps';
const PREFIX = 'virtual:editor-step/';
const MONACO = `${path.sep}node_modules${path.sep}monaco-editor${path.sep}`;

/** Monaco's modules reached from `entry`, in evaluation order, as absolute paths with their sizes. */
async function evaluationOrder(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    outdir: 'unused',
    logLevel: 'silent',
    // Only the graph is wanted: fonts, styles and workers are not followed.
    loader: { '.css': 'empty', '.ttf': 'empty' },
    plugins: [
      {
        name: 'no-workers',
        setup(b) {
          b.onResolve({ filter: /\?worker$/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  const inputs = result.metafile.inputs;
  const order = [];
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dependency of inputs[file]?.imports ?? []) {
      if (dependency.kind === 'import-statement' && !dependency.external) visit(dependency.path);
    }
    order.push(file);
  };
  visit(path.relative(process.cwd(), entry));
  return order
    .map((file) => ({ file: path.resolve(file), bytes: inputs[file]?.bytes ?? 0 }))
    .filter(({ file }) => file.includes(MONACO) && file.endsWith('.js'));
}

/** `modules` cut into `count` runs of about equal size, in order. */
function cut(modules, count) {
  const total = modules.reduce((sum, { bytes }) => sum + bytes, 0);
  const runs = Array.from({ length: count }, () => []);
  let done = 0;
  for (const { file, bytes } of modules) {
    const run = Math.min(count - 1, Math.floor((done / total) * count));
    runs[run].push(file);
    done += bytes;
  }
  return runs;
}

/** The Vite plugin: `virtual:editor-steps` and `virtual:editor-step/<k>`, from the graph of `entry`. */
export function editorSteps(entry) {
  let runs;
  return {
    name: 'difftray-editor-steps',
    async buildStart() {
      runs = cut(await evaluationOrder(entry), EDITOR_STEPS);
    },
    resolveId(id) {
      return id === LIST || id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (id === `\0${LIST}`) {
        const steps = Array.from({ length: EDITOR_STEPS }, (_, k) => `() => import('${PREFIX}${k}')`);
        return `export default [${steps.join(', ')}];`;
      }
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const run = runs?.[Number(id.slice(PREFIX.length + 1))];
      if (!run) throw new Error(`${id}: no such step of the editor's code`);
      return run.map((file) => `import ${JSON.stringify(file)};`).join('\n');
    },
  };
}
