// The agent CLIs the real-client tests run (Claude Code, Codex CLI, Gemini CLI, Qwen Code, Copilot CLI: about
// 800 MB) are their own npm package in test/real-clients, so the app's install does not carry them.
// `npm test` runs this before its suites: it runs `npm ci` there when that folder has no install yet, or
// one made from another package.json or lock, and otherwise does nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REAL_CLIENTS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'real-clients',
);
/** Written after a successful install: the hash of the package.json and lock it was made from. */
const STAMP = path.join(REAL_CLIENTS_DIR, 'node_modules', '.difftray-installed-from');

function manifestHash() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    hash.update(readFileSync(path.join(REAL_CLIENTS_DIR, file)));
  }
  return hash.digest('hex');
}

/** Whether test/real-clients/node_modules was installed from the package.json and lock there now. */
function realClientsUpToDate() {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === manifestHash();
}

/** npm itself: the one running this script when npm started it, else `npm` from PATH. */
function npmCommand(args) {
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.[cm]?js$/.test(npmCli)) return { command: process.execPath, args: [npmCli, ...args] };
  // npm on Windows is npm.cmd, which only a shell starts.
  return { command: 'npm', args, shell: process.platform === 'win32' };
}

if (!realClientsUpToDate()) {
  const hash = manifestHash();
  console.log('Installing the agent CLIs for the real-client tests (npm ci in test/real-clients)...');
  const npm = npmCommand(['ci', '--no-audit', '--no-fund']);
  const result = spawnSync(npm.command, npm.args, {
    cwd: REAL_CLIENTS_DIR,
    stdio: 'inherit',
    shell: npm.shell ?? false,
  });
  if (result.status !== 0) {
    const why = result.error ? result.error.message : `exit code ${result.status ?? result.signal}`;
    console.error(`npm ci in ${REAL_CLIENTS_DIR} failed (${why}).`);
    process.exit(1);
  }
  writeFileSync(STAMP, `${hash}\n`);
}
