/** Serves the built renderer from one folder, never outside it. */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Maps a URL path to a file inside `root`, or null when it would escape it. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = path.resolve(root, relative);
  return file.startsWith(path.resolve(root) + path.sep) ? file : null;
}

/** The file a URL path would serve: its real path, its content type, and whether it is a page. */
export interface StaticTarget {
  file: string;
  type: string;
  /** HTML: the headless server asks for the token before serving it, however the path was spelled. */
  isPage: boolean;
}

/** What `urlPath` resolves to, after decoding and following links, or null when nothing is served. */
export async function resolveStaticFile(root: string, urlPath: string): Promise<StaticTarget | null> {
  const file = resolveStaticPath(root, urlPath);
  if (!file) return null;
  try {
    const [real, realRoot] = await Promise.all([realpath(file), realpath(root)]);
    if (!real.startsWith(realRoot + path.sep) || !(await stat(real)).isFile()) return null;
    const type = contentTypeFor(real);
    return { file: real, type, isPage: type.startsWith('text/html') };
  } catch {
    return null;
  }
}

/** Reads a resolved target (exactly the file that was checked). */
export async function readStaticTarget(target: StaticTarget): Promise<{ body: Buffer; type: string } | null> {
  try {
    return { body: await readFile(target.file), type: target.type };
  } catch {
    return null;
  }
}

export async function readStaticFile(
  root: string,
  urlPath: string,
): Promise<{ body: Buffer; type: string } | null> {
  const target = await resolveStaticFile(root, urlPath);
  return target && readStaticTarget(target);
}
