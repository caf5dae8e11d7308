/**
 * Where the real agent CLIs are installed for the tests: their own npm package in test/real-clients
 * (pinned there, with its own lock), so the app's install does not carry them. `npm test` installs it
 * (scripts/ensure-real-clients.mjs); a test that finds a CLI missing says how to install it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export const REAL_CLIENTS_DIR = path.resolve(__dirname, '..', 'real-clients');
export const REAL_CLIENTS_MODULES = path.join(REAL_CLIENTS_DIR, 'node_modules');
/** Resolves packages as test/real-clients itself would. */
export const requireRealClient = createRequire(path.join(REAL_CLIENTS_DIR, 'package.json'));
/** Appended to "is not installed". */
export const INSTALL_HINT = '(npm run install:real-clients; npm test runs it)';
