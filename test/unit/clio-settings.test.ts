/** The `autoApply` setting: which clients' direct edits (Clio applyDiff) are written without review. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autoApplyClients, loadSettings } from '../../src-main/core/settings';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-clio-settings-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('autoApply', () => {
  it('is off for every client by default: a missing file, a file without the key', () => {
    expect(autoApplyClients(loadSettings(path.join(root, 'missing.json'), vi.fn()))).toEqual([]);
    const file = path.join(root, 'settings.json');
    writeFileSync(file, JSON.stringify({ workspaceFolders: ['/a'] }));
    const settings = loadSettings(file, vi.fn());
    expect(settings).toEqual({ workspaceFolders: ['/a'] });
    expect(autoApplyClients(settings)).toEqual([]);
  });

  it('lists client names from the settings file', () => {
    const file = path.join(root, 'settings.json');
    writeFileSync(file, JSON.stringify({ autoApply: ['Clio'] }));
    const warn = vi.fn();
    const settings = loadSettings(file, warn);
    expect(settings).toEqual({ workspaceFolders: [], autoApply: ['Clio'] });
    expect(autoApplyClients(settings)).toEqual(['Clio']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('an invalid value makes the file invalid as a whole: defaults, one warning, nothing auto-applied', () => {
    const file = path.join(root, 'settings.json');
    writeFileSync(file, JSON.stringify({ autoApply: 'Clio' }));
    const warn = vi.fn();
    expect(autoApplyClients(loadSettings(file, warn))).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
