/**
 * The settings store on real files: what it gives for a broken file, a file with one bad key, a hand
 * edit while running, and what a change writes (and never overwrites).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS } from '../../shared/app-settings';
import { pausedClients, trustedPrograms } from '../../src-main/core/settings/settings';
import { SettingsStore, SettingsStoreError } from '../../src-main/core/settings/settings-store';
import { makeTempDir } from '../support/temp';
import { until } from '../support/wait';

let temp: ReturnType<typeof makeTempDir>;
let file: string;
const stores: SettingsStore[] = [];

beforeEach(() => {
  temp = makeTempDir('settings-store');
  file = path.join(temp.dir, '.difftray', 'settings.json');
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  temp.cleanup();
});

function open(text?: string, options: { watch?: boolean } = { watch: false }): SettingsStore {
  if (text !== undefined) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const store = new SettingsStore(file, { quietMs: 20, ...options });
  stores.push(store);
  return store;
}

const onDisk = () => readFileSync(file, 'utf8');

describe('SettingsStore', () => {
  it('without a file: the defaults, no problem, and a change creates the file', () => {
    const store = open();
    expect(store.settings).toEqual(DEFAULT_APP_SETTINGS);
    expect(store.fileState()).toEqual({ path: file });
    expect(store.update({ theme: 'dark' })).toEqual({ ...DEFAULT_APP_SETTINGS, theme: 'dark' });
    expect(JSON.parse(onDisk())).toEqual({ theme: 'dark' });
  });

  it.each([
    ['not JSON', '{ "theme": "dark", // mine\n', /is not valid JSON/],
    ['not an object', '["dark"]\n', /is not a JSON object/],
  ])(
    'a file that is %s: reported, the defaults used, and a change refused with the file left byte for byte',
    (_, text, why) => {
      const store = open(text);
      expect(store.settings).toEqual(DEFAULT_APP_SETTINGS);
      expect(store.fileState().problem).toMatch(why);
      expect(store.fileState().problem).toContain(file);
      expect(() => store.update({ theme: 'light' })).toThrow(SettingsStoreError);
      expect(() => store.update({ theme: 'light' })).toThrow(
        /Settings not changed: .*settings\.json.*nothing written in it is lost/,
      );
      expect(() => store.write({ watchFolders: ['/w'] })).toThrow(why);
      expect(onDisk()).toBe(text);
    },
  );

  it('one bad key: reported with its reason and its default used; the other keys used; a change to another key keeps it as written', () => {
    const text = JSON.stringify({ theme: 7, autoApply: ['Clio'], launchAtLogin: true, future: { x: 1 } });
    const store = open(text);
    expect(store.settings).toEqual({ ...DEFAULT_APP_SETTINGS, autoApply: ['Clio'], launchAtLogin: true });
    expect(store.fileState().problem).toMatch(/^"theme" is not used \(.+\): its default applies$/);

    store.update({ notifications: { enabled: false, sound: true } });
    expect(JSON.parse(onDisk())).toEqual({
      theme: 7,
      autoApply: ['Clio'],
      launchAtLogin: true,
      future: { x: 1 },
      notifications: { enabled: false, sound: true },
    });
    expect(store.fileState().problem).toMatch(/"theme"/);
    // Setting the bad key itself fixes it.
    store.update({ theme: 'light' });
    expect(store.fileState()).toEqual({ path: file });
    expect(store.settings.theme).toBe('light');
  });

  it('a key map with a chord used twice: the key map is not used, and the problem names the chord', () => {
    const store = open(JSON.stringify({ keyMap: { nextHunk: ['Mod+Y'] }, theme: 'dark' }));
    expect(store.settings.keyMap).toEqual({});
    expect(store.settings.theme).toBe('dark');
    expect(store.fileState().problem).toMatch(
      /"keyMap" is not used \(Mod\+Y is used for both nextHunk and acceptHunk\)/,
    );
  });

  it('main’s own keys of the wrong kind are reported too; shared keys refused for the window are not used by main', () => {
    const store = open(
      JSON.stringify({ workspaceFolders: 'here', extraLockFolders: [3], trustedPrograms: [] }),
    );
    expect(store.main).toEqual({ workspaceFolders: [], trustedPrograms: [] });
    expect(store.settings.extraLockFolders).toEqual([]);
    const problem = store.fileState().problem ?? '';
    expect(problem).toContain('"extraLockFolders" is not used (0:');
    expect(problem).toContain('"workspaceFolders" is not used');
  });

  it('an invalid change is refused with why, and nothing is written', () => {
    const store = open(JSON.stringify({ theme: 'dark' }));
    const before = onDisk();
    expect(() => store.update({ keyMap: { undo: ['Mod+Y'] } })).toThrow(
      /Settings not changed: keyMap: Mod\+Y is used for both acceptHunk and undo/,
    );
    expect(() => store.update({ theme: 'blue' } as never)).toThrow(/Settings not changed: theme: /);
    expect(() => store.update({ extraLockFolders: ['~/.fork', 'relative/ide'] })).toThrow(
      'Settings not changed: extraLockFolders: "relative/ide" must be an absolute path or start with ~/',
    );
    expect(onDisk()).toBe(before);
  });

  it('a change writes only its keys, keeps unknown keys, applies at once and tells the listeners', () => {
    const store = open(JSON.stringify({ future: [1, 2], watchFolders: ['/w'] }));
    let told = 0;
    store.onChange(() => told++);
    expect(store.update({ autoApply: ['Gemini CLI'], keyMap: { undo: ['Mod+U'] } })).toMatchObject({
      autoApply: ['Gemini CLI'],
      keyMap: { undo: ['Mod+U'] },
    });
    expect(told).toBe(1);
    store.write({ trustedPrograms: [{ name: 'Tool', executable: '/usr/bin/tool' }] });
    expect(told).toBe(2);
    expect(trustedPrograms(store.main)).toEqual([{ name: 'Tool', executable: '/usr/bin/tool' }]);
    expect(JSON.parse(onDisk())).toEqual({
      future: [1, 2],
      watchFolders: ['/w'],
      autoApply: ['Gemini CLI'],
      keyMap: { undo: ['Mod+U'] },
      trustedPrograms: [{ name: 'Tool', executable: '/usr/bin/tool' }],
    });
  });

  it('a hand edit while running applies without a restart, and a fixed file clears the problem', async () => {
    const store = open('{ broken', { watch: true });
    expect(store.fileState().problem).toMatch(/is not valid JSON/);
    let told = 0;
    store.onChange(() => told++);

    writeFileSync(file, JSON.stringify({ theme: 'dark', autoApply: ['Clio'] }));
    await until(() => store.settings.theme === 'dark' || undefined, 'the hand edit read');
    expect(store.fileState()).toEqual({ path: file });
    expect(store.settings.autoApply).toEqual(['Clio']);
    expect(told).toBeGreaterThan(0);

    writeFileSync(file, '[]');
    await until(() => store.fileState().problem, 'the file broken again');
    expect(store.settings).toEqual(DEFAULT_APP_SETTINGS);
  });

  it('a file fixed by hand can be changed at once, before the watch has read it', () => {
    const store = open('{ broken');
    writeFileSync(file, '{"theme":"dark"}');
    store.update({ launchAtLogin: true });
    expect(JSON.parse(onDisk())).toEqual({ theme: 'dark', launchAtLogin: true });
  });

  it('paused clients: entries checked one by one, keys worked out again', () => {
    const store = open(
      JSON.stringify({
        pausedClients: [
          { key: 'forged', name: 'Gemini CLI', protocol: 'gemini-ide' },
          { name: 'X', protocol: 'telnet' },
          'nonsense',
        ],
      }),
    );
    const warnings: string[] = [];
    expect(pausedClients(store.main, (warning) => warnings.push(warning))).toEqual([
      { key: 'gemini-ide:Gemini CLI', name: 'Gemini CLI', protocol: 'gemini-ide' },
    ]);
    expect(warnings).toHaveLength(2);
  });
});
