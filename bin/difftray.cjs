#!/usr/bin/env node
// The installed `difftray` command runs the bundled CLI (built by `npm run build`).
const path = require('node:path');
const fs = require('node:fs');

const cli = path.join(__dirname, '..', 'dist', 'main', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error(`difftray: not built yet: run \`npm run build\` in ${path.dirname(__dirname)}`);
  process.exit(2);
}
require(cli);
