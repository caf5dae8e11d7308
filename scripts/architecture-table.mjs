// docs/ARCHITECTURE.md's "may import" table, from the rooms lint enforces (eslint/boundaries.js):
// `node scripts/architecture-table.mjs` prints it to paste; test/unit/architecture.test.ts checks that
// the doc's table is this one.
import { pathToFileURL } from 'node:url';
import prettier from 'prettier';
import { ROOMS } from '../eslint/boundaries.js';

const code = (text) => `\`${text}\``;

/** `a/x/`, `a/y/` as `a/{x,y}/`: the adapters' folders in one cell. */
function filesCell(paths) {
  if (paths.length === 1) return code(paths[0]);
  const parts = paths.map((p) => p.split('/'));
  const at = parts[0].length - 2;
  const head = parts[0].slice(0, at).join('/');
  return code(`${head}/{${parts.map((p) => p[at]).join(',')}}/`);
}

function roomsCell(room) {
  if (room.rooms.includes('*')) {
    return room.except ? `any but ${room.except.map(code).join(', ')}` : 'any';
  }
  if (room.rooms.length === 0) return 'none';
  return room.rooms.map((name) => (name === 'itself' ? 'its own folder' : code(name))).join(', ');
}

/** Packages by name, then Node's built-ins: all of them, or those named (`node:fs` as Node's `fs`). */
function modulesCell(room) {
  if (room.modules.includes('*')) return 'any';
  if (room.modules.length === 0) return 'none';
  const packages = room.modules.filter((name) => !name.startsWith('node:')).map(code);
  const builtins = room.modules.filter((name) => name.startsWith('node:'));
  if (builtins.includes('node:*')) packages.push('Node built-ins');
  else if (builtins.length > 0)
    packages.push(`Node's ${builtins.map((name) => code(name.slice(5))).join(', ')}`);
  return packages.join(', ');
}

export const HEADER = ['Room', 'Files', 'May import rooms', 'May import modules'];

/** The table's rows, one per room, each cell as written in the doc. */
export function mayImportRows() {
  return ROOMS.map((room) => [code(room.room), filesCell(room.paths), roomsCell(room), modulesCell(room)]);
}

/** The table as Markdown, formatted as the repository's prettier formats the doc. */
export async function mayImportTable() {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const markdown = [line(HEADER), line(HEADER.map(() => '---')), ...mayImportRows().map(line)].join('\n');
  const options = (await prettier.resolveConfig(new URL('../docs/ARCHITECTURE.md', import.meta.url))) ?? {};
  return prettier.format(markdown, { ...options, parser: 'markdown' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(await mayImportTable());
}
