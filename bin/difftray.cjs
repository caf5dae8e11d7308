#!/usr/bin/env node
// The installed `difftray` command runs the bundled CLI (built by `npm run build`).
// Written for old Nodes too (no node: imports): on one older than package.json's `engines` it says so, instead of failing on
// the first thing that Node lacks.
const path = require('path');
const fs = require('fs');

const root = path.join(__dirname, '..');
const engines = require(path.join(root, 'package.json')).engines.node;
const oldest = lowestVersion(engines);
if (oldest && compareVersions(process.versions.node, oldest) < 0) {
  console.error(
    `difftray: needs Node.js ${oldest} or newer (package.json engines: ${engines}); this is Node.js ` +
      `${process.versions.node}: install a newer Node.js and run difftray with it`,
  );
  process.exit(2);
}

const cli = path.join(root, 'dist', 'main', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error(`difftray: not built yet: run \`npm run build\` in ${root}`);
  process.exit(2);
}
require(cli);

/** The lowest version a range like "^20.19.0 || ^22.13.0 || >=24" admits: "20.19.0". */
function lowestVersion(range) {
  const bounds = String(range)
    .split('||')
    .map((part) => /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(part))
    .filter(Boolean)
    .map((match) => [match[1], match[2] || '0', match[3] || '0'].join('.'));
  return bounds.sort(compareVersions)[0];
}

function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0);
  return 0;
}
