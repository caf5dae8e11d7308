/**
 * The rule behind eslint/boundaries.js: every import of a file in a room (static, type-only,
 * `export … from`, `import()`, `require()`) names a room or a module that room allows, or is refused.
 * A relative import is judged by the path it resolves to, so `../core/x` and `../../core/x` are the
 * same import whichever subfolder the file sits in.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: eslint/ is one of its folders. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const BUILTINS = new Set(builtinModules);

const compiled = new Map();

/** `folder/` matches the folder and everything under it, `*` any name within one folder. */
function patternRegex(pattern) {
  if (!compiled.has(pattern)) compiled.set(pattern, compile(pattern));
  return compiled.get(pattern);
}

function compile(pattern) {
  const body = pattern
    .replace(/\/$/, '')
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*');
  return new RegExp(pattern.endsWith('/') ? `^${body}(/.*)?$` : `^${body}$`);
}

/**
 * Where a path (from the root, with `/`) lives: its room and the pattern that placed it there (the
 * longest that matches), or null for a path in no room.
 */
export function placeOf(rooms, relativePath) {
  let best = null;
  for (const room of rooms) {
    for (const pattern of room.paths) {
      if (patternRegex(pattern).test(relativePath) && (!best || pattern.length > best.pattern.length)) {
        best = { room, pattern };
      }
    }
  }
  return best;
}

/** The module an import names: `node:fs` for `fs/promises` or `node:fs`, `@scope/name` for its subpaths. */
export function moduleOf(specifier) {
  const bare = specifier.split('?')[0];
  if (bare.startsWith('node:')) return `node:${bare.slice('node:'.length).split('/')[0]}`;
  const parts = bare.split('/');
  const name = bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? `node:${name}` : name;
}

const fromRoot = (absolute) => path.relative(ROOT, absolute).split(path.sep).join('/');

/** What `specifier`, written in `file`, imports: a path from the root, or a module. */
function targetOf(specifier, file) {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    return { path: fromRoot(path.resolve(path.dirname(file), specifier.split('?')[0])) };
  }
  return { module: moduleOf(specifier) };
}

/** Whether a file placed at `home` may import `target`. */
export function mayImport(rooms, home, target) {
  const { room } = home;
  if (target.module !== undefined) {
    const allowed = room.modules;
    return (
      allowed.includes('*') ||
      allowed.includes(target.module) ||
      (target.module.startsWith('node:') && allowed.includes('node:*'))
    );
  }
  const place = placeOf(rooms, target.path);
  if (room.rooms.includes('*')) return !place || !(room.except ?? []).includes(place.room.room);
  if (!place) return false;
  if (place.room === room && place.pattern === home.pattern && room.rooms.includes('itself')) return true;
  return room.rooms.includes(place.room.room);
}

/** What a room may import, in words, for the refusal. */
export function allowedText(room) {
  const rooms = room.rooms.includes('*')
    ? `any room${room.except ? ` but ${room.except.join(', ')}` : ''}`
    : room.rooms.join(', ') || 'no room';
  const modules = room.modules.includes('*') ? 'any module' : room.modules.join(', ') || 'no module';
  return `rooms: ${rooms}; modules: ${modules}`;
}

/** The string a source node holds, if it is one written out (not computed). */
function literal(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/** The ESLint rule for `rooms` (eslint/boundaries.js's ROOMS). */
export function roomImportsRule(rooms) {
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Each room of the repository imports only the rooms and modules it allows.' },
      schema: [],
      messages: {
        refused:
          "{{home}} may not import '{{specifier}}' ({{what}}). {{why}} It may import {{allowed}} (eslint/boundaries.js).",
        roomless:
          '{{file}} is in no room of eslint/boundaries.js: give its folder one, with what it may import.',
      },
    },
    create(context) {
      const file = fromRoot(context.filename);
      const home = placeOf(rooms, file);
      if (!home) {
        return { Program: (node) => context.report({ node, messageId: 'roomless', data: { file } }) };
      }
      const check = (node) => {
        const specifier = literal(node);
        if (specifier === undefined) return;
        const target = targetOf(specifier, context.filename);
        if (mayImport(rooms, home, target)) return;
        const place = target.path !== undefined ? placeOf(rooms, target.path) : null;
        const what =
          target.module !== undefined
            ? `module ${target.module}`
            : place
              ? `room ${place.room.room}: ${place.pattern}`
              : `${target.path}, in no room`;
        context.report({
          node,
          messageId: 'refused',
          data: { home: home.pattern, specifier, what, why: home.room.why, allowed: allowedText(home.room) },
        });
      };
      return {
        ImportDeclaration: (node) => check(node.source),
        ExportNamedDeclaration: (node) => node.source && check(node.source),
        ExportAllDeclaration: (node) => check(node.source),
        ImportExpression: (node) => check(node.source),
        // `import('x').T` in a type; typescript-eslint 8 holds the string in `argument.literal`.
        TSImportType: (node) => check(node.argument?.literal ?? node.source),
        TSExternalModuleReference: (node) => check(node.expression),
        CallExpression: (node) => {
          if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
        },
      };
    },
  };
}
