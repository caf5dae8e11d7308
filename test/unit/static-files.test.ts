import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentTypeFor, readStaticFile, resolveStaticPath } from '../../src-main/loopback/static-files';

let base: string;
let root: string;

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-static-'));
  root = path.join(base, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>DiffTray</title>');
  writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1);');
  writeFileSync(path.join(root, 'assets', 'style.css'), 'body{}');
  writeFileSync(path.join(root, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32, 0x00, 0xff]));
  writeFileSync(path.join(root, 'assets', 'blob.xyz'), 'x');
  // Files next to the root that must never be served, one with a name sharing the root's prefix.
  writeFileSync(path.join(base, 'secret.txt'), 'secret');
  mkdirSync(path.join(base, 'renderer-evil'));
  writeFileSync(path.join(base, 'renderer-evil', 'x.js'), 'evil');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('resolveStaticPath', () => {
  it('maps / to index.html', () => {
    expect(resolveStaticPath(root, '/')).toBe(path.join(root, 'index.html'));
  });

  it('maps paths inside the root', () => {
    expect(resolveStaticPath(root, '/index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/app.js')).toBe(path.join(root, 'assets', 'app.js'));
    expect(resolveStaticPath(root, '//assets//app.js')).toBe(path.join(root, 'assets', 'app.js'));
    expect(resolveStaticPath(root, '/assets/../index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/my%20file.js')).toBe(path.join(root, 'assets', 'my file.js'));
  });

  it.each([
    '/../secret.txt',
    '/..',
    '/../',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/../renderer-evil/x.js',
    '/%2e%2e/renderer-evil/x.js',
    '/../../../../../../etc/passwd',
  ])('refuses the escape %s', (urlPath) => {
    expect(resolveStaticPath(root, urlPath)).toBeNull();
  });

  it.each(['/index.html%00', '/index.html%00.png', '/%00', '/assets/\0app.js'])(
    'refuses the NUL byte in %j',
    (urlPath) => {
      expect(resolveStaticPath(root, urlPath)).toBeNull();
    },
  );

  it.each(['/%', '/%zz', '/%E0%A4%A', '/index%2', '/%C0%AF', '/%ff'])(
    'refuses the malformed escape %s',
    (urlPath) => {
      expect(resolveStaticPath(root, urlPath)).toBeNull();
    },
  );

  it('refuses the root folder itself', () => {
    expect(resolveStaticPath(root, '')).toBeNull();
    expect(resolveStaticPath(root, '/.')).toBeNull();
    expect(resolveStaticPath(root, '/assets/..')).toBeNull();
  });

  it('never returns a path outside the root, whatever the input', () => {
    const inputs = ['/a/../../b', '/./../x', '/%2e/%2e%2e/x', '\\..\\x', '/....//x', '/.../x'];
    for (const input of inputs) {
      const result = resolveStaticPath(root, input);
      if (result !== null) expect(result.startsWith(root + path.sep)).toBe(true);
    }
  });

  it('works with a root given with a trailing slash or as a relative path', () => {
    expect(resolveStaticPath(`${root}/`, '/index.html')).toBe(path.join(root, 'index.html'));
    const relativeRoot = path.relative(process.cwd(), root);
    expect(resolveStaticPath(relativeRoot, '/index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveStaticPath(relativeRoot, '/../secret.txt')).toBeNull();
  });
});

describe('readStaticFile', () => {
  it('serves index.html for / with the html type', async () => {
    const result = await readStaticFile(root, '/');
    expect(result).not.toBeNull();
    expect(result!.body.toString('utf8')).toBe('<!doctype html><title>DiffTray</title>');
    expect(result!.type).toBe('text/html; charset=utf-8');
  });

  it('serves assets with their content type, bytes intact', async () => {
    const js = await readStaticFile(root, '/assets/app.js');
    expect(js).toEqual({ body: Buffer.from('console.log(1);'), type: 'text/javascript; charset=utf-8' });
    const css = await readStaticFile(root, '/assets/style.css');
    expect(css?.type).toBe('text/css; charset=utf-8');
    const font = await readStaticFile(root, '/assets/font.woff2');
    expect(font).toEqual({ body: Buffer.from([0x77, 0x4f, 0x46, 0x32, 0x00, 0xff]), type: 'font/woff2' });
    const blob = await readStaticFile(root, '/assets/blob.xyz');
    expect(blob?.type).toBe('application/octet-stream');
  });

  it('gives null for a missing file, a directory and an escape', async () => {
    await expect(readStaticFile(root, '/missing.js')).resolves.toBeNull();
    await expect(readStaticFile(root, '/assets')).resolves.toBeNull();
    await expect(readStaticFile(root, '/assets/')).resolves.toBeNull();
    await expect(readStaticFile(root, '/../secret.txt')).resolves.toBeNull();
    await expect(readStaticFile(root, '/%2e%2e/secret.txt')).resolves.toBeNull();
    await expect(readStaticFile(root, '/%')).resolves.toBeNull();
  });
});

describe('contentTypeFor', () => {
  it.each([
    ['a.html', 'text/html; charset=utf-8'],
    ['A.HTML', 'text/html; charset=utf-8'],
    ['a.mjs', 'text/javascript; charset=utf-8'],
    ['a.json', 'application/json'],
    ['a.js.map', 'application/json'],
    ['a.svg', 'image/svg+xml'],
    ['a.png', 'image/png'],
    ['a.ico', 'image/x-icon'],
    ['a.ttf', 'font/ttf'],
    ['a.woff', 'font/woff'],
    ['noext', 'application/octet-stream'],
    ['.html', 'application/octet-stream'],
  ])('%s → %s', (file, type) => {
    expect(contentTypeFor(file)).toBe(type);
  });
});
