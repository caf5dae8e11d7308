/**
 * seed 003's context services over the native protocol, against the real runtime, on a real temp
 * workspace with a .gitignore (and one in a subfolder), node_modules, a binary file, a file over the
 * context limit, a FIFO, and symbolic links pointing outside (left out, never followed), plus links
 * swapped in while a walk runs. Attacks (paths outside, malformed payloads, huge strings) get clear
 * codes, and the socket lives on.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTEXT_MAX_FILE_BYTES } from '../../shared/limits';
import { observeFileReads } from '../../src-main/core/disk/disk-snapshot';
import { NATIVE_HEADER, RawNative, type Message } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until } from '../support/wait';

let t: TestRuntime;
let clients: RawNative[];
let outside: string;

const ws = (...parts: string[]) => path.join(t.workspace, ...parts);

function write(file: string, text: string | Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

beforeEach(async () => {
  t = await startTestRuntime();
  clients = [];
  outside = path.join(path.dirname(t.workspace), 'outside');
  write(path.join(outside, 'secret.txt'), 'needle secret\n');
  write(ws('.gitignore'), 'ignored.txt\nbuild/\n');
  write(ws('src', 'a.ts'), 'export const needle = 1;\n');
  write(ws('src', 'b.ts'), 'line one\nfoo needle bar\r\nNEEDLE shouting\n');
  write(ws('ignored.txt'), 'needle ignored\n');
  write(ws('build', 'out.js'), 'needle built\n');
  write(ws('node_modules', 'dep', 'index.js'), 'needle dep\n');
  write(ws('sub', '.gitignore'), 'local.txt\n');
  write(ws('sub', 'local.txt'), 'needle local\n');
  write(ws('sub', 'keep.txt'), 'kept\n');
  write(ws('bin.dat'), Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]));
  write(ws('big.txt'), `needle${'x'.repeat(CONTEXT_MAX_FILE_BYTES)}\n`);
  symlinkSync(path.join(outside, 'secret.txt'), ws('link-out.txt'));
  symlinkSync(outside, ws('linkdir'));
  execFileSync('mkfifo', [ws('pipe')]);
});

afterEach(async () => {
  observeFileReads(undefined);
  for (const client of clients) client.close();
  await t.close();
});

async function connect(hello = true): Promise<RawNative> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  clients.push(client);
  if (hello) expect((await client.request('hello', { client_name: 'ctx-agent' })).type).toBe('response');
  return client;
}

function ok(answer: Message): Record<string, unknown> {
  expect(answer.type, JSON.stringify(answer.payload).slice(0, 500)).toBe('response');
  return answer.payload;
}

function refused(answer: Message, code: number): string {
  expect(answer.type, JSON.stringify(answer.payload).slice(0, 500)).toBe('error_response');
  expect(answer.payload.code).toBe(code);
  return answer.payload.message as string;
}

const reasons = (payload: Record<string, unknown>) =>
  Object.fromEntries(
    (payload.skipped as Array<{ path: string; reason: string }>).map((entry) => [
      path.relative(t.workspace, entry.path),
      entry.reason,
    ]),
  );

describe('native context: the workspace’s texts', () => {
  it('get_entire_codebase: text files only, .gitignore honoured, and what was left out says why', async () => {
    const client = await connect();
    const answer = ok(await client.request('get_entire_codebase', { workspaceFolderUri: null }));

    expect(answer.filterType).toBe('gitignore');
    expect(answer.workspaceFolderUri).toBe(pathToFileURL(t.workspace).href);
    expect(answer.fileTree).toBe(
      ['.gitignore', 'src/a.ts', 'src/b.ts', 'sub/.gitignore', 'sub/keep.txt'].join('\n'),
    );
    expect(answer.concatenatedContent).toContain('File: src/a.ts\n```\nexport const needle = 1;\n\n```\n');
    for (const absent of ['secret', 'ignored', 'built', 'dep', 'local']) {
      expect(answer.concatenatedContent).not.toContain(`needle ${absent}`);
    }
    expect(reasons(answer)).toEqual({
      'big.txt': 'too_large',
      'bin.dat': 'binary',
      'link-out.txt': 'symlink',
      linkdir: 'symlink',
      pipe: 'special_file',
    });
    expect(answer.skippedCounts).toEqual({ too_large: 1, binary: 1, symlink: 2, special_file: 1 });
    expect(answer.truncated).toBe(false);
    expect(answer.metadata).toMatchObject({
      type: 'codebase_content',
      content_source_id: `${pathToFileURL(t.workspace).href}::codebase`,
      label: `Entire Codebase - ${path.basename(t.workspace)}`,
    });
  });

  it('get_folder_content: one folder, recursively; a subfolder’s .gitignore applies below it', async () => {
    const client = await connect();
    const src = ok(await client.request('get_folder_content', { folderPath: ws('src') }));
    expect((src.files as Array<{ path: string }>).map((file) => file.path)).toEqual([
      ws('src', 'a.ts'),
      ws('src', 'b.ts'),
    ]);
    expect(src.metadata).toMatchObject({ type: 'folder_content', label: 'src/' });

    const sub = ok(await client.request('get_folder_content', { folderPath: pathToFileURL(ws('sub')).href }));
    expect((sub.files as Array<{ path: string }>).map((file) => file.path)).toEqual([
      ws('sub', '.gitignore'),
      ws('sub', 'keep.txt'),
    ]);
  });

  it('a file and a folder swapped for links to outside, and a file for a FIFO, while the walk runs are left out', async () => {
    write(ws('swap', 'a.txt'), 'first\n');
    write(ws('swap', 'b.txt'), 'second\n');
    write(ws('swap', 'f.txt'), 'becomes a FIFO\n');
    write(ws('swap', 'zdir', 'c.txt'), 'third\n');
    const client = await connect();
    // When a.txt is read, b.txt and zdir (listed already, not yet reached) become links out.
    observeFileReads((file) => {
      if (file !== ws('swap', 'a.txt')) return;
      rmSync(ws('swap', 'b.txt'));
      symlinkSync(path.join(outside, 'secret.txt'), ws('swap', 'b.txt'));
      rmSync(ws('swap', 'f.txt'));
      execFileSync('mkfifo', [ws('swap', 'f.txt')]);
      renameSync(ws('swap', 'zdir'), ws('zdir-moved'));
      symlinkSync(outside, ws('swap', 'zdir'));
    });

    const answer = ok(await client.request('get_folder_content', { folderPath: ws('swap') }));
    expect((answer.files as Array<{ path: string }>).map((file) => file.path)).toEqual([ws('swap', 'a.txt')]);
    expect(answer.content).not.toContain('secret');
    expect(reasons(answer)).toEqual({
      'swap/b.txt': 'symlink',
      'swap/f.txt': 'special_file',
      'swap/zdir': 'symlink',
    });
  });

  it('refuses folders outside the workspace, by `..`, absolute path, URL or link, with 3001', async () => {
    const client = await connect();
    for (const folderPath of [
      `${t.workspace}/../outside`,
      outside,
      '/etc',
      pathToFileURL(outside).href,
      ws('linkdir'),
      `${ws('linkdir')}/..`,
    ]) {
      refused(await client.request('get_folder_content', { folderPath }), 3001);
    }
    refused(await client.request('get_entire_codebase', { workspaceFolderUri: outside }), 3001);
    refused(await client.request('get_filter_info', { workspaceFolderUri: '/etc' }), 3001);
    refused(await client.request('search_workspace', { query: 'x', workspaceFolderUri: outside }), 3001);
    refused(await client.request('get_folder_content', { folderPath: ws('nope') }), 3003);
    refused(await client.request('get_folder_content', { folderPath: ws('src', 'a.ts') }), 3003);
    refused(await client.request('get_folder_content', { folderPath: 'src' }), 2004);
    refused(await client.request('get_folder_content', { folderPath: 'file://host/%00' }), 2004);
    ok(await client.request('heartbeat'));
  });

  it('malformed payloads and huge strings get 2004; a context command before hello 1003; the socket lives on', async () => {
    const client = await connect(false);
    refused(await client.request('get_folder_content', { folderPath: ws('src') }), 1003);
    expect((await client.request('hello', { client_name: 'x' })).type).toBe('response');
    const huge = 'x'.repeat(1_000_000);
    for (const [command, payload] of [
      ['get_folder_content', {}],
      ['get_folder_content', { folderPath: 5 }],
      ['get_folder_content', { folderPath: `/${huge}` }],
      ['get_entire_codebase', { workspaceFolderUri: 7 }],
      ['search_workspace', {}],
      ['search_workspace', { query: '' }],
      ['search_workspace', { query: huge }],
      ['search_workspace', { query: 'x', maxResults: 1e9 }],
      ['search_workspace', { query: 'x', isRegex: 'yes' }],
      ['check_workspace_trust', { path: huge }],
      ['register_active_target', { tabId: -1 }],
      ['register_active_target', { llmHost: huge }],
    ] as const) {
      refused(await client.request(command, payload), 2004);
    }
    ok(await client.request('heartbeat'));
  });
});

describe('native context: search_workspace', () => {
  it('finds a literal in text files, 1-based lines, .gitignore honoured, binary/large/links/FIFO left out', async () => {
    const client = await connect();
    const answer = ok(await client.request('search_workspace', { query: 'needle' }));
    expect(answer.results).toEqual([
      expect.objectContaining({
        path: ws('src', 'a.ts'),
        line: 1,
        lineText: 'export const needle = 1;',
        type: 'file',
      }),
      expect.objectContaining({ path: ws('src', 'b.ts'), line: 2, lineText: 'foo needle bar', name: 'b.ts' }),
    ]);
    expect((answer.results as Array<Record<string, unknown>>)[0]).toMatchObject({
      content_source_id: pathToFileURL(ws('src', 'a.ts')).href,
      workspaceFolderUri: pathToFileURL(t.workspace).href,
    });
    expect(answer.skippedCounts).toEqual({ too_large: 1, binary: 1, symlink: 2, special_file: 1 });
    expect(answer.filesSearched).toBe(5);
    expect(answer.stoppedBy).toBeUndefined();
  });

  it('case-insensitive, regular expressions, and bounded results', async () => {
    const client = await connect();
    const loud = ok(await client.request('search_workspace', { query: 'NEEDLE', caseSensitive: false }));
    expect((loud.results as Array<{ line: number }>).map((r) => r.line)).toEqual([1, 2, 3]);
    const regex = ok(await client.request('search_workspace', { query: 'needle\\s+b.r$', isRegex: true }));
    expect(regex.results).toEqual([expect.objectContaining({ path: ws('src', 'b.ts'), line: 2 })]);
    // A line ending in \r\r\n reads the same found either way: one \r dropped, the other kept.
    write(ws('src', 'cr.txt'), 'stray\r\r\n');
    const literal = ok(await client.request('search_workspace', { query: 'stray' }));
    const pattern = ok(await client.request('search_workspace', { query: 'str.y', isRegex: true }));
    expect(literal.results).toEqual([expect.objectContaining({ line: 1, lineText: 'stray\r' })]);
    expect(pattern.results).toEqual(literal.results);
    const one = ok(await client.request('search_workspace', { query: 'needle', maxResults: 1 }));
    expect(one.results).toHaveLength(1);
    expect(one.stoppedBy).toBe('max_results');
    const message = refused(
      await client.request('search_workspace', { query: '(unclosed', isRegex: true }),
      2004,
    );
    expect(message).toMatch(/Not a regular expression/);
  });

  it('a long line is cut around the match and says so', async () => {
    write(ws('long.txt'), `${'a'.repeat(5000)}needle${'b'.repeat(5000)}\n`);
    const client = await connect();
    const answer = ok(
      await client.request('search_workspace', { query: 'needle', workspaceFolderUri: t.workspace }),
    );
    const long = (answer.results as Array<{ path: string; lineText: string; lineTruncated?: boolean }>).find(
      (result) => result.path === ws('long.txt'),
    )!;
    expect(long.lineTruncated).toBe(true);
    expect(long.lineText).toContain('needle');
    expect(long.lineText.length).toBeLessThanOrEqual(400);
  });

  it('a regular expression that backtracks catastrophically is stopped by its time budget; the socket lives on', async () => {
    write(ws('evil.txt'), `${'a'.repeat(40)}!\n`);
    const client = await connect();
    const answer = ok(await client.request('search_workspace', { query: '^(a+)+$', isRegex: true }));
    expect(answer.stoppedBy).toBe('regex_time');
    ok(await client.request('heartbeat'));
    const after = ok(await client.request('search_workspace', { query: 'needle' }));
    expect(after.results).toHaveLength(2);
  }, 20_000);
});

describe('native context: trust and filters', () => {
  it('check_workspace_trust: the workspace folders and paths inside them are trusted, nothing else', async () => {
    const client = await connect();
    expect(ok(await client.request('check_workspace_trust'))).toEqual({
      isTrusted: true,
      workspaceFolders: [
        { uri: pathToFileURL(t.workspace).href, name: path.basename(t.workspace), isTrusted: true },
      ],
    });
    const inside = ok(await client.request('check_workspace_trust', { path: ws('src', 'new.ts') }));
    expect(inside).toMatchObject({
      isTrusted: true,
      path: { isTrusted: true, realPath: ws('src', 'new.ts') },
    });
    for (const asked of [
      ws('link-out.txt'),
      ws('linkdir', 'secret.txt'),
      '/etc/passwd',
      `${t.workspace}/../x`,
      'rel',
    ]) {
      const answer = ok(await client.request('check_workspace_trust', { path: asked }));
      expect(answer, asked).toMatchObject({ isTrusted: false, path: { path: asked, isTrusted: false } });
    }
  });

  it('get_filter_info: the .gitignore files in force, git’s exclude files, the names always skipped', async () => {
    write(ws('build', '.gitignore'), 'x\n');
    const client = await connect();
    const answer = ok(await client.request('get_filter_info', {}));
    expect(answer).toEqual({
      workspaceFolderUri: pathToFileURL(t.workspace).href,
      filterType: 'gitignore',
      // build/ is ignored: its own .gitignore applies to nothing.
      gitignoreFiles: [ws('.gitignore'), ws('sub', '.gitignore')],
      gitignoreFilesTruncated: false,
      gitTopLevel: null,
      infoExclude: null,
      globalExcludes: null,
      alwaysSkipped: ['.git', 'node_modules'],
    });
  });
});

describe('native context: in a git work tree', () => {
  it('git’s info/exclude and global excludes file apply, and get_filter_info names them', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: t.workspace });
    git('init', '-q');
    write(ws('.git', 'info', 'exclude'), 'excluded-locally.txt\n');
    write(path.join(outside, 'global-ignore'), '*.tmp\n');
    git('config', 'core.excludesFile', path.join(outside, 'global-ignore'));
    write(ws('excluded-locally.txt'), 'needle excluded\n');
    write(ws('scratch.tmp'), 'needle scratch\n');
    const client = await connect();

    const info = ok(
      await client.request('get_filter_info', { workspaceFolderUri: pathToFileURL(t.workspace).href }),
    );
    expect(info).toMatchObject({
      filterType: 'gitignore',
      gitTopLevel: t.workspace,
      infoExclude: ws('.git', 'info', 'exclude'),
      globalExcludes: path.join(outside, 'global-ignore'),
    });
    const search = ok(await client.request('search_workspace', { query: 'needle' }));
    expect((search.results as Array<{ path: string }>).map((result) => result.path)).toEqual([
      ws('src', 'a.ts'),
      ws('src', 'b.ts'),
    ]);
    const codebase = ok(await client.request('get_entire_codebase', {}));
    expect(codebase.fileTree).not.toMatch(/\.git\/|excluded-locally|scratch/);
  });
});

describe('native context: what is under review and on screen', () => {
  async function propose(client: RawNative, names: string[]): Promise<string> {
    for (const name of names) write(ws(name), 'old\n');
    const answer = ok(
      await client.request('propose_change_set', {
        title: 'change',
        files: names.map((name) => ({ path: ws(name), before: 'old\n', after: 'new\n' })),
      }),
    );
    return answer.review_id as string;
  }

  it('get_open_files lists the files of pending reviews, each once, with its reviews', async () => {
    const client = await connect();
    expect(ok(await client.request('get_open_files'))).toEqual({ openFiles: [], truncated: false });
    const first = await propose(client, ['one.txt', 'two.txt']);
    const second = await propose(client, ['two.txt']);
    const answer = ok(await client.request('get_open_files'));
    expect(answer.openFiles).toEqual([
      expect.objectContaining({ path: ws('one.txt'), name: 'one.txt', review_ids: [first] }),
      expect.objectContaining({ path: ws('two.txt'), review_ids: [first, second] }),
    ]);
  });

  it('get_active_file_info follows the review a window shows; registered targets hear of it', async () => {
    const client = await connect();
    expect((await client.request('get_active_file_info')).payload).toBeNull();
    const id = await propose(client, ['one.txt', 'two.txt']);
    ok(await client.request('register_active_target', { tabId: 3 }));
    const window = t.runtime.core.subscribe(() => {});

    window.focus(id);
    expect(ok(await client.request('get_active_file_info'))).toEqual({
      activeFilePath: ws('one.txt'),
      activeFileLabel: 'one.txt',
      workspaceFolderUri: pathToFileURL(t.workspace).href,
      workspaceFolderName: path.basename(t.workspace),
      review_id: id,
      file_index: 0,
    });
    expect((await client.nextPush()).payload).toEqual({
      message: `On screen: ${ws('one.txt')}`,
      statusType: 'info',
      details: { activeFilePath: ws('one.txt') },
    });
    // The window's file tab, as the renderer tells it (AppApi showingFile).
    await t.runtime.handler('showingFile', { reviewId: id, fileIndex: 1 }, window);
    expect(ok(await client.request('get_active_file_info'))).toMatchObject({ activeFilePath: ws('two.txt') });
    expect((await client.nextPush()).payload).toMatchObject({ details: { activeFilePath: ws('two.txt') } });
    // Another review than the one on screen: not what the person looks at.
    await t.runtime.handler('showingFile', { reviewId: 'elsewhere', fileIndex: 0 }, window);
    expect(ok(await client.request('get_active_file_info'))).toMatchObject({ file_index: 1 });

    window.close();
    expect((await client.request('get_active_file_info')).payload).toBeNull();
    expect((await client.nextPush()).payload).toMatchObject({ details: { activeFilePath: null } });
  });

  it("attack: a paired host's review on screen is not reported as a local file, nor listed as open", async () => {
    const client = await connect();
    // The paired host names a path that happens to be a file here too.
    const remoteHost = t.runtime.core.clients.connect('laptop', 'native', () => {});
    const { id } = t.runtime.core.queue.add({
      client: remoteHost,
      title: 'On the laptop',
      remote: { clientName: 'laptop' },
      files: [
        { path: ws('one.txt'), base: { exists: true, kind: 'text', text: 'x\n' }, proposedText: 'y\n' },
      ],
    });
    const window = t.runtime.core.subscribe(() => {});
    window.focus(id);
    expect((await client.request('get_active_file_info')).payload).toBeNull();
    expect(ok(await client.request('get_open_files'))).toEqual({ openFiles: [], truncated: false });
    window.close();
  });
});

describe('native context: register_active_target', () => {
  it('another connection registered for a session gets its snippets, with targetTabId; then the session’s own again', async () => {
    const agent = await connect(false);
    const hello = ok(await agent.request('hello', { client_name: 'agent' }));
    write(ws('calc.py'), 'a\nb\n');
    const review = ok(
      await agent.request('propose_change_set', {
        title: 't',
        files: [{ path: ws('calc.py'), before: 'a\nb\n', after: 'a\nB\n' }],
      }),
    );
    const tab = await connect(false);
    refused(await tab.request('register_active_target', { tabId: 1 }), 1003);
    refused(await tab.request('register_active_target', { session_id: 'nope' }), 1003);
    expect(
      ok(
        await tab.request('register_active_target', {
          session_id: hello.session_id,
          tabId: 42,
          llmHost: 'x.ai',
        }),
      ),
    ).toEqual({ success: true, message: 'Target registered for agent' });

    const send = () =>
      t.runtime.handler('sendSelection', {
        reviewId: review.review_id,
        fileIndex: 0,
        side: 'base',
        startLine: 0,
        endLine: 0,
      });
    await send();
    expect((await tab.nextPush()).payload).toMatchObject({ snippet: 'a', targetTabId: 42 });
    await agent.expectNoPush();

    tab.close();
    await tab.closed;
    // The registered connection is gone: the session's own connection gets it, as before.
    await until(() => t.runtime.core.clients.list().length === 1, 'the registered connection closed');
    await send();
    const push = await agent.nextPush();
    expect(push.payload).toMatchObject({ snippet: 'a' });
    expect(push.payload.targetTabId).toBeUndefined();
  });

  it('status_update: DiffTray closing is pushed to registered targets before the socket closes', async () => {
    const client = await connect();
    const bystander = await connect();
    ok(await client.request('register_active_target', {}));
    const closing = t.runtime.native.close();
    expect((await client.nextPush()).payload).toEqual({
      message: 'DiffTray is closing',
      statusType: 'connection_status',
    });
    await closing;
    await bystander.expectNoPush();
  });

  it('status_update: the watched folders changing is pushed to registered targets', async () => {
    const client = await connect();
    ok(await client.request('register_active_target', {}));
    ok(await client.request('watch_folder', { folder: ws('src'), watch: true }));
    const push = await client.nextPush();
    expect(push).toMatchObject({ type: 'push', command: 'status_update' });
    expect(push.payload).toEqual({
      message: `Watched folders: ${ws('src')}`,
      statusType: 'workspace_status',
      details: { workspaceFolders: [t.workspace], watchedFolders: [ws('src')] },
    });
  });
});
