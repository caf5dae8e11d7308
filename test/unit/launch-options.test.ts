import { describe, it, expect } from 'vitest';
import { parseLaunchArgs } from '../../src-main/launch-options';

describe('parseLaunchArgs', () => {
  it('has defaults: no workspaces, not headless, port 0', () => {
    expect(parseLaunchArgs([])).toEqual({
      workspaces: [],
      headless: false,
      port: 0,
      hidden: false,
      newInstance: false,
    });
  });

  it('--hidden starts in the tray (as the login item does)', () => {
    expect(parseLaunchArgs(['--hidden']).hidden).toBe(true);
  });

  it('--new-instance asks for a DiffTray of its own, never a hand-over', () => {
    expect(parseLaunchArgs(['--new-instance']).newInstance).toBe(true);
    expect(parseLaunchArgs(['--headless', '--new-instance', '-w', '/a'])).toMatchObject({
      headless: true,
      newInstance: true,
      workspaces: ['/a'],
    });
  });

  it('collects repeated --workspace, -w and --workspace= in order', () => {
    expect(
      parseLaunchArgs(['--workspace', '/a', '-w', '/b', '--workspace=/c', '-w', 'rel/d']).workspaces,
    ).toEqual(['/a', '/b', '/c', 'rel/d']);
  });

  it('keeps a workspace path with spaces and leading dots as given', () => {
    expect(parseLaunchArgs(['--workspace', '/my dir/../x']).workspaces).toEqual(['/my dir/../x']);
  });

  it('sets headless with --headless', () => {
    expect(parseLaunchArgs(['--headless'])).toEqual({
      workspaces: [],
      headless: true,
      port: 0,
      hidden: false,
      newInstance: false,
    });
    expect(parseLaunchArgs(['--workspace', '/a', '--headless']).headless).toBe(true);
  });

  it.each([
    ['0', 0],
    ['1', 1],
    ['8080', 8080],
    ['65535', 65535],
  ])('accepts --port %s', (value, port) => {
    expect(parseLaunchArgs(['--port', value]).port).toBe(port);
    expect(parseLaunchArgs([`--port=${value}`]).port).toBe(port);
  });

  it.each(['abc', '-1', '65536', '70000', '1.5', 'NaN', 'Infinity', '80abc'])(
    'refuses --port %s',
    (value) => {
      expect(() => parseLaunchArgs([`--port=${value}`])).toThrow(/Invalid --port/);
    },
  );

  it('refuses --port followed by another switch instead of a number', () => {
    expect(() => parseLaunchArgs(['--port', '--headless'])).toThrow(/Invalid --port/);
  });

  // With strict parsing off, a bare `--port` parses as `true`; it must be refused, not read as port 1.
  it('refuses a --port without a value', () => {
    expect(() => parseLaunchArgs(['--port'])).toThrow(/Invalid --port/);
  });

  it('refuses an empty --port', () => {
    expect(() => parseLaunchArgs(['--port='])).toThrow(/Invalid --port/);
  });

  it('ignores Electron and Chromium switches and positionals', () => {
    const options = parseLaunchArgs([
      '/path/to/electron',
      '.',
      '--enable-logging',
      '--inspect=9229',
      '--remote-debugging-port=9222',
      '--no-sandbox',
      '-psn_0_12345',
      '--workspace',
      '/ws',
      '--disable-gpu',
      'positional',
    ]);
    expect(options).toEqual({
      workspaces: ['/ws'],
      headless: false,
      port: 0,
      hidden: false,
      newInstance: false,
    });
  });

  it('refuses a --workspace without a folder', () => {
    expect(() => parseLaunchArgs(['--workspace'])).toThrow('--workspace needs a folder');
  });

  it('does not mutate its input', () => {
    const argv = Object.freeze(['--workspace', '/a', '--headless']);
    expect(() => parseLaunchArgs(argv)).not.toThrow();
    expect(argv).toEqual(['--workspace', '/a', '--headless']);
  });
});
