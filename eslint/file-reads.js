/**
 * Reads of files in src-main go through src-main/core/disk/regular-file.ts: a path someone else can create
 * (a settings or lock file, Claude Code's settings.json) may be a FIFO, and readFileSync of a FIFO waits
 * for a writer forever, freezing the app. This rule refuses fs's whole-file reads everywhere in src-main
 * except the files below, each with its reason. test/unit/lint-boundaries.test.ts proves it fires.
 */

/** Files allowed a plain read, and why the path cannot be someone else's trap. */
export const PLAIN_READ_ALLOWED = {
  'src-main/core/disk/regular-file.ts': 'the reader itself',
  'src-main/core/clients/peer-process.ts': '/proc files, written by the kernel, not by another user',
  'src-main/cli/review.ts':
    'the patch file the person names on their own command line; `difftray review <(git diff)` is a pipe',
  'src-main/loopback/static-files.ts': "the app's own built files, resolved and stat-checked first",
};

const FS_MODULE = '/^(node:)?fs(\\u002Fpromises)?$/';
const WHOLE_FILE_READS = '/^(readFileSync|readFile|createReadStream)$/';
const message =
  'Read through src-main/core/disk/regular-file.ts (readRegularFile): a FIFO at this path would hang the app. ' +
  'A justified exception goes in eslint/file-reads.js.';

export const fileReads = [
  {
    files: ['src-main/**/*.ts'],
    ignores: Object.keys(PLAIN_READ_ALLOWED),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportDeclaration[source.value=${FS_MODULE}] > ImportSpecifier[imported.name=${WHOLE_FILE_READS}]`,
          message,
        },
        { selector: `MemberExpression[property.name=${WHOLE_FILE_READS}]`, message },
      ],
    },
  },
];
