/**
 * The import rules of eslint/boundaries.js fire on a bad import and stay quiet on a good one, through
 * ESLint itself with the project's own configuration (files named where they would live; none is written).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of the import rule for `code` as if it were the file `file`. */
async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'boundaries/room-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['src-main/core/x.ts', "import { BridgeServer } from '../bridge/bridge-server';", /core knows nothing/],
    [
      'src-main/core/x.ts',
      "import { HeadlessServer } from '../headless/headless-server';",
      /core knows nothing/,
    ],
    ['src-main/core/x.ts', "import { main } from '../cli/main';", /core knows nothing/],
    ['src-main/core/x.ts', "import { createWindow } from '../desktop/window';", /core knows nothing/],
    ['src-main/core/x.ts', "import { startRuntime } from '../runtime';", /core knows nothing/],
    ['src-main/core/x.ts', "import { app } from 'electron';", /core knows nothing/],
    [
      'src-main/bridge/clio/x.ts',
      "import { serveClaudeConnection } from '../claude-ide/connection';",
      /another adapter/,
    ],
    ['src-main/bridge/native/x.ts', "import { CLIO_CLIENT_NAME } from '../clio';", /another adapter/],
    [
      'src-main/bridge/gemini-ide/x.ts',
      "import { x } from '../../bridge/native/messages';",
      /another adapter/,
    ],
    [
      'src-main/bridge/claude-ide/x.ts',
      "import { app } from 'electron';",
      /another adapter \(nor Electron\)/,
    ],
    ['src-main/bridge/x.ts', "import { app } from 'electron';", /only under src-main\/desktop/],
    ['src-main/headless/x.ts', "import { BrowserWindow } from 'electron';", /only under src-main\/desktop/],
    ['src-main/cli/x.ts', "import { shell } from 'electron';", /Electron is only in desktop/],
    ['src-main/cli/x.ts', "import { ErrorCode } from '../bridge/native/connection';", /not bridge/],
    ['src-renderer/x.ts', "import { readFileSync } from 'node:fs';", /only through the AppApi/],
    ['src-renderer/x.ts', "import { AppCore } from '../src-main/core/app-core';", /only through the AppApi/],
    ['src-renderer/x.ts', "import { ipcRenderer } from 'electron';", /only through the AppApi/],
    ['shared/x.ts', "import path from 'node:path';", /shared\/ runs everywhere/],
    ['shared/x.ts', "import { AppCore } from '../src-main/core/app-core';", /shared\/ runs everywhere/],
  ])('%s: %s is refused', async (file, code, message) => {
    const errors = await importErrors(file, `${code}\nexport {};\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    ['src-main/core/x.ts', "import { hashBytes } from './disk-snapshot';"],
    ['src-main/core/x.ts', "import { computeHunks } from '../../shared/hunks';"],
    ['src-main/bridge/clio/x.ts', "import { AppCore } from '../../core/app-core';"],
    ['src-main/bridge/clio/x.ts', "import { applyRangeEdits } from './edits';"],
    ['src-main/desktop/x.ts', "import { app } from 'electron';"],
    ['src-main/cli/x.ts', "import { ErrorCode } from '../../shared/native-protocol';"],
    ['src-renderer/x.ts', "import type { AppApi } from '../shared/app-api';"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await importErrors(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});

/** The messages of the file-read rule (eslint/file-reads.js) for `code` as if it were the file `file`. */
async function readErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('whole-file reads in main', () => {
  it.each([
    ['src-main/core/x.ts', "import { readFileSync } from 'node:fs';\nreadFileSync('/a', 'utf8');"],
    ['src-main/cli/x.ts', "import { readFile } from 'node:fs/promises';\nvoid readFile('/a');"],
    ['src-main/bridge/x.ts', "import { createReadStream } from 'fs';\ncreateReadStream('/a');"],
    ['src-main/desktop/x.ts', "import fs from 'node:fs';\nfs.readFileSync('/a');"],
  ])('%s: %s is refused', async (file, code) => {
    const errors = await readErrors(file, `${code}\nexport {};\n`);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/regular-file\.ts/);
  });

  it.each([
    ['src-main/core/x.ts', "import { readRegularFile } from './disk/regular-file';\nreadRegularFile('/a');"],
    [
      'src-main/core/clients/peer-process.ts',
      "import { readFileSync } from 'node:fs';\nreadFileSync('/proc/x');",
    ],
    ['test/x.ts', "import { readFileSync } from 'node:fs';\nreadFileSync('/a');"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await readErrors(file, `${code}\nexport {};\n`)).toEqual([]);
  });
});
