/**
 * What a person sees when `difftray` (the built command, node bin/difftray.cjs) cannot do what was asked:
 * one line on stderr, naming the fix where there is one, exit 2 — never a stack trace. Against the real
 * headless app in a child process (node dist/main/headless.cjs, sandboxed HOME and DIFFTRAY_HOME).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, buildMain, DIFFTRAY_BIN, ROOT } from '../support/build';
import {
  HEADLESS_ENTRY,
  makeSandboxDirs,
  sandboxEnv,
  startHeadlessProcess,
  type HeadlessProcess,
} from '../support/headless-process';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  input?: string;
  /** stdin redirected from this path (`< path`), as a shell does: opened read-only, instead of `input`. */
  stdinFrom?: string;
  closeStdout?: boolean;
}

/** Runs `node <args>` with `env` in `cwd`, `input` on stdin; `closeStdout`: its reader is gone at once. */
function node(args: string[], options: RunOptions): Promise<Ran> {
  const stdinFd = options.stdinFrom === undefined ? undefined : openSync(options.stdinFrom, 'r');
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
  });
  if (stdinFd !== undefined) closeSync(stdinFd);
  if (!child.stdout || !child.stderr) throw new Error('spawned without pipes for stdout and stderr');
  let stdout = '';
  let stderr = '';
  if (options.closeStdout) child.stdout.destroy();
  else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end(options.input ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const failed = (line: string) => ({ code: 2, stdout: '', stderr: `difftray: ${line}\n` });
const ADD_FOLDER =
  'add the folder in Settings → Workspace folders, or start DiffTray with --workspace <folder>';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

describe('difftray against a running DiffTray', () => {
  let app: HeadlessProcess;
  const difftray = (args: string[], options: Partial<RunOptions> = {}) =>
    node([DIFFTRAY_BIN, ...args], { env: app.env, cwd: options.cwd ?? app.workspace, ...options });
  const ws = (name: string) => path.join(app.workspace, name);
  const git = (...args: string[]) => {
    const done = spawnSync('git', args, { cwd: app.workspace, env: app.env, encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`git ${args.join(' ')}: ${done.stderr}`);
    return done.stdout;
  };

  beforeAll(async () => {
    app = await startHeadlessProcess('cli-errors');
    const lockDir = app.env.DIFFTRAY_HOME!;
    const deadline = Date.now() + 20_000;
    while (!(existsSync(lockDir) && readdirSync(lockDir).some((name) => name.endsWith('.lock')))) {
      if (Date.now() > deadline) throw new Error(`no lock file in ${lockDir}: ${app.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);
  afterAll(() => app?.stop());

  it('a reader that stops reading (difftray status | head -1) ends it quietly, with its usual exit code', async () => {
    const { code, stderr } = await difftray(['status'], { closeStdout: true });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('an empty patch: "nothing to review", exit 0, whoever reads stderr', async () => {
    expect(await difftray(['review'], { input: '' })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'difftray: nothing to review (the patch is empty)\n',
    });
  });

  it('stdin from a folder (difftray review < folder) is named as such: exit 2, not "nothing to review"', async () => {
    expect(await difftray(['review'], { stdinFrom: app.workspace })).toEqual(
      failed(
        'stdin is a folder, not a patch: pipe a patch in (git diff | difftray review) or name a patch file',
      ),
    );
    expect(await difftray(['review', app.workspace])).toEqual(
      failed(`${app.workspace} is a folder, not a patch file`),
    );
  });

  it('stdin from /dev/null is an empty patch: "nothing to review", exit 0', async () => {
    expect(await difftray(['review'], { stdinFrom: '/dev/null' })).toEqual({
      code: 0,
      stdout: '',
      stderr: 'difftray: nothing to review (the patch is empty)\n',
    });
  });

  it('a binary patch is named as binary, from git diff and git diff --binary', async () => {
    git('init', '-q', '.');
    writeFileSync(ws('b.bin'), Buffer.from([0, 1, 2, 3]));
    git('add', 'b.bin');
    git('commit', '-qm', 'binary');
    writeFileSync(ws('b.bin'), Buffer.from([0, 9, 9, 9]));
    for (const patch of [git('diff'), git('diff', '--binary')]) {
      expect(await difftray(['review'], { input: patch })).toEqual({
        code: 2,
        stdout: 'error    b.bin: a binary change; DiffTray reviews text\n',
        stderr:
          'difftray: nothing to review: no file of the patch can be reviewed (each is listed with why)\n',
      });
    }
    rmSync(ws('.git'), { recursive: true, force: true });
  });

  it('a patch whose context does not match says so once, naming the file and the line', async () => {
    writeFileSync(ws('c.txt'), ['1', '2', '3', '4', '5', '6', '7', ''].join('\n'));
    const patch = '--- a/c.txt\n+++ b/c.txt\n@@ -4,3 +4,3 @@\n 4\n-X\n+Y\n 6\n';
    const { code, stdout, stderr } = await difftray(['review'], { input: patch });
    expect(code).toBe(2);
    expect(stdout).toBe(
      'conflict c.txt: changed on disk since the diff was made: line 5 does not match the patch\n',
    );
    expect(`${stdout}${stderr}`.split('does not match').length - 1).toBe(1);
  });

  it('outside the workspace: the fix is named (review and watch)', async () => {
    const outside = path.dirname(app.workspace);
    writeFileSync(path.join(outside, 'o.txt'), 'x\n');
    const patch = '--- a/o.txt\n+++ b/o.txt\n@@ -1 +1 @@\n-x\n+y\n';
    expect(await difftray(['review'], { cwd: outside, input: patch })).toEqual(
      failed(`o.txt is outside DiffTray's workspace folders (${app.workspace}); ${ADD_FOLDER}`),
    );
    expect(await difftray(['watch'], { cwd: outside })).toEqual(
      failed(
        `${outside} is outside the workspace folders (DiffTray's workspace: ${app.workspace}); ${ADD_FOLDER}`,
      ),
    );
  });

  it("approve with the command's options taken as difftray's suggests --", async () => {
    expect(await difftray(['approve', 'ls', '-la'])).toEqual(
      failed("unknown option '-l': a command with options goes after --, as in: difftray approve -- ls -la"),
    );
    // Not silently taken as difftray's reason: the -m after the command's first word is the command's.
    expect(await difftray(['approve', '-m', 'why', 'git', 'commit', '-m', 'x y'])).toEqual(
      failed(
        "-m after the command would be read as difftray's: a command with options goes after --, as in: " +
          "difftray approve -m why -- git commit -m 'x y'",
      ),
    );
    expect(await difftray(['approve'])).toEqual(
      failed('approve needs the command to ask about, after --, as in: difftray approve -- make deploy'),
    );
  });

  it('watch with a broken settings.json changes nothing: exit 2, with the reason and the fix', async () => {
    const settings = path.join(app.env.DIFFTRAY_HOME!, 'settings.json');
    writeFileSync(settings, '{"workspaceFolders": [');
    try {
      const { code, stdout, stderr } = await difftray(['watch']);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toMatch(
        /^difftray: watch mode was not changed: ~\/\.difftray\/settings\.json is not valid JSON \(.+\), and DiffTray remembers watched folders there: fix the file, or remove it to start again from the defaults\n$/,
      );
    } finally {
      rmSync(settings, { force: true });
    }
    const status = await difftray(['status']);
    expect(status.stdout).toContain('Watch mode: off');
  });
});

describe('difftray and the app on the wrong footing', () => {
  it('the app refuses a --workspace that is no existing folder: exit 2, with the reason', async () => {
    const { temp, home, tmp } = makeSandboxDirs('workspace-arg');
    try {
      const env = sandboxEnv(home, tmp);
      const missing = path.join(home, 'no-such-project');
      expect(await node([HEADLESS_ENTRY, '--workspace', missing], { env, cwd: home })).toEqual({
        code: 2,
        stdout: '',
        stderr: `DiffTray failed to start: --workspace ${missing}: no such folder; name an existing folder\n`,
      });
      writeFileSync(path.join(home, 'notes.txt'), 'x\n');
      expect(await node([HEADLESS_ENTRY, '--workspace', '~/notes.txt'], { env, cwd: home })).toEqual({
        code: 2,
        stdout: '',
        stderr: `DiffTray failed to start: --workspace ~/notes.txt (${home}/notes.txt): not a folder; name an existing folder\n`,
      });
      // Nothing started: no lock file was written.
      expect(existsSync(path.join(home, '.difftray'))).toBe(false);
    } finally {
      temp.cleanup();
    }
  });

  it('pair with its input ended before a code was typed says so (exit 2), not a silent exit 0', async () => {
    const { temp, home, tmp } = makeSandboxDirs('pair-eof');
    try {
      const { code, stdout, stderr } = await node([DIFFTRAY_BIN, 'pair', '--port', '5'], {
        env: sandboxEnv(home, tmp),
        cwd: home,
        input: '',
      });
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toBe(
        'Pairing code shown in DiffTray (Connections → Pair a remote agent): \n' +
          'difftray: no pairing code given (type it, or pass --code)\n',
      );
    } finally {
      temp.cleanup();
    }
  });

  it('on a Node older than package.json engines, the command says so (exit 2)', async () => {
    const { temp, home, tmp } = makeSandboxDirs('old-node');
    try {
      // This Node, made to say it is 18.19.0, as an older one would.
      const pretend = path.join(home, 'old-node.cjs');
      mkdirSync(home, { recursive: true });
      writeFileSync(
        pretend,
        "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.19.0' } });\n",
      );
      const { engines } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        engines: { node: string };
      };
      expect(
        await node(['-r', pretend, DIFFTRAY_BIN, '--version'], { env: sandboxEnv(home, tmp), cwd: home }),
      ).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `difftray: needs Node.js 20.19.0 or newer (package.json engines: ${engines.node}); this is ` +
          'Node.js 18.19.0: install a newer Node.js and run difftray with it\n',
      });
      // This very Node is new enough.
      const now = await node([DIFFTRAY_BIN, '--version'], { env: sandboxEnv(home, tmp), cwd: home });
      expect(now).toMatchObject({ code: 0, stderr: '' });
    } finally {
      temp.cleanup();
    }
  });
});
