#!/usr/bin/env node
// The installed `difftray` command runs the bundled CLI (built by `npm run build`).
require('../dist/main/cli.cjs');
