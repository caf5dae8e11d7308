/**
 * electron-builder.yml, loaded and validated as `npm run dist` would (electron-builder's own loader and
 * JSON schema), plus what DiffTray relies on: the targets, no file associations, the CLI unpacked where
 * the command line launcher looks for it, and every file the config names present.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEntryPath } from '../../src-main/desktop/cli-install';
import { trayView } from '../../src-main/desktop/tray-model';

const ROOT = path.resolve(__dirname, '..', '..');
const require = createRequire(import.meta.url);

interface TargetEntry {
  target: string;
  arch?: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { output: string; buildResources: string };
  extraMetadata: { main: string };
  asar: boolean;
  asarUnpack: string[];
  fileAssociations: unknown[];
  publish?: unknown;
  mac: { target: TargetEntry[]; icon: string };
  win: { target: TargetEntry[]; icon: string };
  linux: {
    target: TargetEntry[];
    icon: string;
    executableName: string;
    desktop: { entry: Record<string, string> };
  };
}

const builder = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string, configFromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: unknown, debugLogger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const yaml = require('js-yaml') as { load(text: string): unknown };

const load = () => builder.getConfig(ROOT, 'electron-builder.yml', null);
const validate = (config: unknown) => builder.validateConfiguration(config, new DebugLogger(false));

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(validate(await load())).resolves.toBeUndefined();
  });

  it('is really checked: a misplaced option is refused', async () => {
    const config = await load();
    await expect(validate({ ...config, mac: { ...config.mac, oneClick: false } })).rejects.toThrow(
      /configuration/,
    );
  });

  it('builds a dmg for x64 and arm64, an NSIS installer and an AppImage, under the app id', async () => {
    const config = await load();
    expect(config.appId).toBe('dev.difftray.app');
    expect(config.productName).toBe('DiffTray');
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config.win.target.map((entry) => entry.target)).toEqual(['nsis']);
    expect(config.linux.target.map((entry) => entry.target)).toEqual(['AppImage']);
    expect(config.fileAssociations).toEqual([]);
    expect(config.linux.desktop.entry).toMatchObject({ Name: 'DiffTray', Categories: 'Development;' });
  });

  it('starts the bundle the build writes, as package.json does', async () => {
    const config = await load();
    const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(config.extraMetadata.main).toBe(packageJson.main);
    expect(readFileSync(path.join(ROOT, 'scripts', 'build-main.mjs'), 'utf8')).toContain(
      `outfile: '${packageJson.main}'`,
    );
  });

  it('unpacks the CLI exactly where the installed difftray command runs it from', async () => {
    const config = await load();
    expect(config.asar).toBe(true);
    const resources = '/Applications/DiffTray.app/Contents/Resources';
    const launched = cliEntryPath({
      packaged: true,
      resourcesPath: resources,
      mainBundleDir: `${resources}/app.asar/dist/main`,
    });
    expect(config.asarUnpack.map((glob) => path.posix.join(resources, 'app.asar.unpacked', glob))).toContain(
      launched,
    );
    expect(readFileSync(path.join(ROOT, 'scripts', 'build-main.mjs'), 'utf8')).toContain(
      `outfile: 'dist/main/cli.cjs'`,
    );
  });

  it('names icon files that exist, every size for Linux, and the tray icons main.ts loads', async () => {
    const config = await load();
    expect(existsSync(path.join(ROOT, config.directories.buildResources))).toBe(true);
    expect(readFileSync(path.join(ROOT, config.mac.icon)).subarray(0, 4).toString('latin1')).toBe('icns');
    expect([...readFileSync(path.join(ROOT, config.win.icon)).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(existsSync(path.join(ROOT, config.linux.icon, `${size}x${size}.png`)), `${size}x${size}`).toBe(
        true,
      );
    }
    const state = { pending: [], unpausedClients: 0, pausedClients: 0, openAtLogin: false };
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      expect(existsSync(path.join(ROOT, 'assets', trayView(state, platform).icon.file)), platform).toBe(true);
    }
    expect(existsSync(path.join(ROOT, 'assets', 'overlay-badge.png'))).toBe(true);
  });

  it('configures no release feed, so the app never looks for updates, even with GH_TOKEN set', async () => {
    // Left out, electron-builder would pick GitHub whenever GH_TOKEN is set and write app-update.yml.
    expect((await load()).publish).toBeNull();
  });

  it("accepts the README's GitHub Releases entry that turns updates on", async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /```yaml\n(publish:[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const entry = yaml.load(block!) as { publish: { provider: string } };
    expect(entry.publish.provider).toBe('github');
    await expect(validate({ ...(await load()), ...entry })).resolves.toBeUndefined();
  });
});
