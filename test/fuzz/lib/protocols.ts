/**
 * What each endpoint's clients send, as valid-looking messages to mutate, and the limit probes: frames and
 * fields just under and just over the limits DiffTray states (frame-limits.ts, core/limits.ts).
 */
import { MAX_FRAME_BYTES, MAX_PREAUTH_FRAME_BYTES } from '../../../src-main/loopback/frame-limits';
import {
  MAX_FILE_BYTES,
  MAX_LABEL_CHARS,
  MAX_NOTE_CHARS,
  MAX_PATH_CHARS,
  SEARCH_MAX_QUERY_CHARS,
  SEARCH_MAX_RESULTS,
} from '../../../src-main/core/limits';
import { HANDSHAKE_MAX_FRAME_BYTES, PAIR_MAX_FRAME_BYTES } from '../../../shared/native-protocol';
import { escapePath, hostilePaths, hugeString, paddedTo, text, type Frame, type FuzzContext } from './frames';
import type { Prng } from './prng';

export type EndpointName = 'claude' | 'gemini' | 'copilot' | 'clio' | 'native' | 'headless';
export const ENDPOINT_NAMES: readonly EndpointName[] = [
  'claude',
  'gemini',
  'copilot',
  'clio',
  'native',
  'headless',
];

export interface ProtocolModel {
  /** One valid-looking message, as a client of this endpoint would send it. */
  message(ctx: FuzzContext, prng: Prng): Record<string, unknown>;
  /** A well-formed message naming a method (type, command) that does not exist. */
  unknownMethod(prng: Prng): Record<string, unknown>;
  /** Frames at the stated limits, each sent once per run. */
  limitProbes(ctx: FuzzContext): LimitProbe[];
}

export interface LimitProbe {
  label: string;
  frame: () => Frame;
}

/** A workspace file, or now and then a path that tries to leave the workspace. */
const filePath = (ctx: FuzzContext, prng: Prng) =>
  prng.chance(0.25) ? prng.pick(hostilePaths(ctx, prng)) : `${ctx.workspace}/${prng.pick(ctx.files)}`;
const someText = (prng: Prng) => prng.pick(['alpha\nBETA\ngamma\n', '', 'x', 'new file\n', 'a\r\nb\r\n']);

/** Just under and just over a limit: n and n + 1. */
function around(limit: number): Array<[string, number]> {
  return [
    [`= limit (${limit})`, limit],
    [`limit + 1 (${limit + 1})`, limit + 1],
  ];
}

/** Probes of one string field at a limit, built by `build(value)`. */
function fieldProbes(
  field: string,
  limit: number,
  build: (value: string) => Record<string, unknown>,
): LimitProbe[] {
  return around(limit).map(([where, size]) => ({
    label: `${field} ${where}`,
    frame: () => text(`${field} ${where}`, JSON.stringify(build('x'.repeat(size)))),
  }));
}

/** A frame just under and just over MAX_FRAME_BYTES, built from a valid-looking message. */
function frameProbes(message: Record<string, unknown>, preauth = false): LimitProbe[] {
  const limit = preauth ? MAX_PREAUTH_FRAME_BYTES : MAX_FRAME_BYTES;
  const name = preauth ? 'pre-auth frame' : 'frame';
  return [
    [`${name} = limit (${limit} bytes)`, limit],
    [`${name} limit + 1 (${limit + 1} bytes)`, limit + 1],
  ].map(([label, size]) => ({
    label: label as string,
    frame: () => ({ ...text(label as string, paddedTo(message, size as number)), preauth }),
  }));
}

let rpcId = 1;
const rpc = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id: rpcId++,
  method,
  ...(params !== undefined && { params }),
});
const toolCall = (name: string, args: Record<string, unknown>) =>
  rpc('tools/call', { name, arguments: args });
const initialize = () =>
  rpc('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'fuzz', version: '1.0.0' },
  });

const claude: ProtocolModel = {
  message: (ctx, prng) =>
    prng.weighted<() => Record<string, unknown>>([
      [1, initialize],
      [1, () => ({ jsonrpc: '2.0', method: 'notifications/initialized' })],
      [1, () => ({ jsonrpc: '2.0', method: 'ide_connected', params: { pid: process.pid } })],
      [1, () => rpc('tools/list')],
      [1, () => rpc('ping')],
      [
        5,
        () =>
          toolCall('openDiff', {
            old_file_path: filePath(ctx, prng),
            new_file_path: filePath(ctx, prng),
            new_file_contents: someText(prng),
            tab_name: `tab-${prng.int(20)}`,
          }),
      ],
      [
        2,
        () =>
          toolCall('openDiff', {
            old_file_path: escapePath(ctx, prng),
            new_file_path: `${ctx.workspace}/a.txt`,
            new_file_contents: someText(prng),
            tab_name: `escape-${prng.int(1000)}`,
          }),
      ],
      [1, () => toolCall('close_tab', { tab_name: `tab-${prng.int(20)}` })],
      [1, () => toolCall('closeAllDiffTabs', {})],
      [2, () => toolCall('openFile', { filePath: filePath(ctx, prng), startLine: 1, endLine: 2 })],
      [1, () => toolCall('getDiagnostics', { uri: `file://${filePath(ctx, prng)}` })],
      [1, () => toolCall(prng.pick(['getWorkspaceFolders', 'getOpenEditors', 'getCurrentSelection']), {})],
      [
        1,
        () => toolCall(prng.pick(['checkDocumentDirty', 'saveDocument']), { filePath: filePath(ctx, prng) }),
      ],
      [1, () => ({ jsonrpc: '2.0', id: rpcId++, result: {} })],
      [1, () => rpc('notifications/cancelled', { requestId: prng.int(50), reason: 'fuzz' })],
    ])(),
  unknownMethod: (prng) =>
    rpc(prng.pick(['frobnicate', 'tools/frob', '__proto__', 'constructor', 'rpc.discover'])),
  limitProbes: (ctx) => {
    const openDiff = (over: Record<string, string>) =>
      toolCall('openDiff', {
        old_file_path: `${ctx.workspace}/a.txt`,
        new_file_path: `${ctx.workspace}/a.txt`,
        new_file_contents: 'x\n',
        tab_name: 'limit',
        ...over,
      });
    return [
      ...fieldProbes('openDiff.new_file_contents', MAX_FILE_BYTES, (v) => openDiff({ new_file_contents: v })),
      ...fieldProbes('openDiff.tab_name', MAX_LABEL_CHARS, (v) => openDiff({ tab_name: v })),
      ...fieldProbes('openDiff.new_file_path', MAX_PATH_CHARS, (v) =>
        openDiff({ new_file_path: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}` }),
      ),
      ...frameProbes(rpc('tools/list')),
    ];
  },
};

const gemini: ProtocolModel = {
  message: (ctx, prng) =>
    prng.weighted<() => Record<string, unknown>>([
      [1, initialize],
      [1, () => ({ jsonrpc: '2.0', method: 'notifications/initialized' })],
      [1, () => rpc('tools/list')],
      [5, () => toolCall('openDiff', { filePath: filePath(ctx, prng), newContent: someText(prng) })],
      [2, () => toolCall('openDiff', { filePath: escapePath(ctx, prng), newContent: someText(prng) })],
      [
        3,
        () =>
          toolCall('closeDiff', { filePath: filePath(ctx, prng), suppressNotification: prng.chance(0.5) }),
      ],
      [1, () => rpc('ping')],
    ])(),
  unknownMethod: (prng) => rpc(prng.pick(['frobnicate', 'tools/frob', 'resources/list', '__proto__'])),
  limitProbes: (ctx) => {
    const openDiff = (over: Record<string, string>) =>
      toolCall('openDiff', { filePath: `${ctx.workspace}/a.txt`, newContent: 'x\n', ...over });
    return [
      ...fieldProbes('openDiff.newContent', MAX_FILE_BYTES, (v) => openDiff({ newContent: v })),
      ...fieldProbes('openDiff.filePath', MAX_PATH_CHARS, (v) =>
        openDiff({ filePath: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}` }),
      ),
      ...frameProbes(rpc('tools/list')),
    ];
  },
};

const copilot: ProtocolModel = {
  message: (ctx, prng) => {
    const tab = () => prng.pick(['Test Diff', 'fuzz', '', '../tab', 'x'.repeat(64)]);
    return prng.weighted<() => Record<string, unknown>>([
      [
        1,
        () => ({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'copilot-cli', version: '1.0.0' },
          },
        }),
      ],
      [1, () => ({ jsonrpc: '2.0', method: 'notifications/initialized' })],
      [1, () => rpc('tools/list')],
      [
        5,
        () =>
          toolCall('open_diff', {
            original_file_path: filePath(ctx, prng),
            new_file_contents: someText(prng),
            tab_name: tab(),
          }),
      ],
      [
        2,
        () =>
          toolCall('open_diff', {
            original_file_path: escapePath(ctx, prng),
            new_file_contents: someText(prng),
            tab_name: tab(),
          }),
      ],
      [3, () => toolCall('close_diff', { tab_name: tab() })],
      [1, () => toolCall('update_session_name', { name: tab() })],
      [1, () => toolCall(prng.pick(['get_selection', 'get_vscode_info']), {})],
      [1, () => toolCall('get_diagnostics', { uri: `file://${filePath(ctx, prng)}` })],
      [1, () => rpc('ping')],
    ])();
  },
  unknownMethod: (prng) => rpc(prng.pick(['frobnicate', 'tools/frob', 'resources/list', '__proto__'])),
  limitProbes: (ctx) => {
    const openDiff = (over: Record<string, string>) =>
      toolCall('open_diff', {
        original_file_path: `${ctx.workspace}/a.txt`,
        new_file_contents: 'x\n',
        tab_name: 'probe',
        ...over,
      });
    return [
      ...fieldProbes('open_diff.new_file_contents', MAX_FILE_BYTES, (v) =>
        openDiff({ new_file_contents: v }),
      ),
      ...fieldProbes('open_diff.original_file_path', MAX_PATH_CHARS, (v) =>
        openDiff({ original_file_path: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}` }),
      ),
      ...fieldProbes('open_diff.tab_name', MAX_LABEL_CHARS, (v) => openDiff({ tab_name: v })),
      ...frameProbes(rpc('tools/list')),
    ];
  },
};

const rangeEdit = (prng: Prng) => ({
  range: {
    start: { line: prng.int(4), character: prng.int(6) },
    end: { line: prng.int(4), character: prng.int(6) },
  },
  newText: someText(prng),
});

const clio: ProtocolModel = {
  message: (ctx, prng) =>
    prng.weighted<() => Record<string, unknown>>([
      [
        2,
        () => ({ type: 'connect', clientVersion: '1.0', ...(prng.chance(0.5) && { token: 'wrong-token' }) }),
      ],
      [
        4,
        () => ({
          type: 'openDiff',
          file: prng.chance(0.5) ? prng.pick(ctx.files) : filePath(ctx, prng),
          before: someText(prng),
          after: someText(prng),
          description: 'fuzz',
        }),
      ],
      [
        3,
        () => ({
          type: 'proposeDiff',
          file: prng.pick(ctx.files),
          edits: [rangeEdit(prng)],
          description: 'fuzz',
        }),
      ],
      [
        3,
        () => ({ type: 'applyDiff', file: prng.pick(ctx.files), edits: [rangeEdit(prng), rangeEdit(prng)] }),
      ],
      [2, () => ({ type: 'openDiff', file: escapePath(ctx, prng), after: someText(prng) })],
      [1, () => ({ type: 'applyDiff', file: escapePath(ctx, prng), edits: [rangeEdit(prng)] })],
      [2, () => ({ type: 'closeDiff', file: prng.pick(ctx.files) })],
      [
        1,
        () => ({ type: 'status', message: 'running tests', level: prng.pick(['info', 'warning', 'error']) }),
      ],
    ])(),
  unknownMethod: (prng) => ({ type: prng.pick(['frob', 'diffAccepted', '__proto__', 'hasOwnProperty', '']) }),
  limitProbes: (ctx) => {
    const openDiff = (over: Record<string, string>) => ({
      type: 'openDiff',
      file: 'a.txt',
      after: 'x\n',
      ...over,
    });
    return [
      ...fieldProbes('openDiff.after', MAX_FILE_BYTES, (v) => openDiff({ after: v })),
      ...fieldProbes('openDiff.description', MAX_NOTE_CHARS, (v) => openDiff({ description: v })),
      ...fieldProbes('status.message', MAX_LABEL_CHARS, (v) => ({ type: 'status', message: v })),
      ...fieldProbes('openDiff.file', MAX_PATH_CHARS, (v) =>
        openDiff({ file: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}` }),
      ),
      ...frameProbes({ type: 'status', message: 'limit' }),
      ...frameProbes({ type: 'connect', clientVersion: '1.0' }, true),
    ];
  },
};

const envelope = (command: string, payload: unknown) => ({
  protocol_version: '1.0',
  message_id: `m${rpcId++}`,
  type: 'request',
  command,
  payload,
});

/**
 * The frame limits of the two sockets without a token, at it and one byte over: the pairing socket's
 * (PAIR_MAX_FRAME_BYTES) and the handshake's (HANDSHAKE_MAX_FRAME_BYTES).
 */
function pairProbes(): LimitProbe[] {
  const pair = envelope('pair', { code: '000000', client_name: 'limit' });
  const challenge = envelope('challenge', { nonce: '0'.repeat(64) });
  return [
    ...around(PAIR_MAX_FRAME_BYTES).map(([where, size]) => ({
      label: `pair frame ${where}`,
      frame: () => ({
        ...text(`pair frame ${where}`, paddedTo(pair, size)),
        preauth: true,
        preauthPath: '/pair',
      }),
    })),
    ...around(HANDSHAKE_MAX_FRAME_BYTES).map(([where, size]) => ({
      label: `handshake frame ${where}`,
      frame: () => ({
        ...text(`handshake frame ${where}`, paddedTo(challenge, size)),
        preauth: true,
        preauthPath: '/handshake',
      }),
    })),
  ];
}

const native: ProtocolModel = {
  message: (ctx, prng) =>
    prng.weighted<() => Record<string, unknown>>([
      [1, () => envelope('hello', { client_name: 'fuzz', client_version: '1.0' })],
      [
        1,
        () =>
          envelope('hello', {
            client_name: 'Claude Code',
            integration: 'claude-code-hooks',
            agent_session_id: 'fuzz-session',
            workspace: ctx.workspace,
            one_shot: prng.chance(0.5),
          }),
      ],
      [1, () => envelope('heartbeat', {})],
      [
        2,
        () =>
          envelope('request_approval', {
            kind: prng.pick(['command', 'write_file', 'delete_file', 'tool', 'nuke']),
            tool_name: 'Bash',
            command: someText(prng),
            cwd: prng.chance(0.5) ? ctx.workspace : escapePath(ctx, prng),
            args: prng.chance(0.5) ? { deep: [[[{ x: someText(prng) }]]] } : someText(prng),
            risk_level: prng.pick(['low', 'high', 'extreme']),
          }),
      ],
      [
        4,
        () =>
          envelope('propose_change_set', {
            title: 'fuzz',
            rationale: 'because',
            ...(prng.chance(0.3) && { writer: prng.pick(['client', 'difftray', 'nobody']) }),
            files: [
              {
                path: prng.pick(ctx.files),
                before: prng.chance(0.5) ? null : someText(prng),
                after: prng.chance(0.2) ? null : someText(prng),
              },
            ],
          }),
      ],
      [
        2,
        () =>
          envelope('propose_change_set', {
            title: 'fuzz patch',
            patch: `--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n`,
            base_dir: ctx.workspace,
          }),
      ],
      [1, () => envelope('get_review', { review_id: `r${prng.int(10)}` })],
      [1, () => envelope('list_reviews', {})],
      [1, () => envelope('cancel_review', { review_id: `r${prng.int(10)}`, reason: 'fuzz' })],
      [1, () => envelope('status', { message: 'running', level: 'info' })],
      [1, () => envelope('show_window', {})],
      [1, () => envelope('get_file_tree', { folder: ctx.workspace, max_entries: 50 })],
      [1, () => envelope('watch_folder', { folder: ctx.workspace, watch: prng.chance(0.5) })],
      [1, () => envelope('watch_folder', { folder: escapePath(ctx, prng), watch: true })],
      [2, () => envelope('get_file_content', { path: filePath(ctx, prng) })],
      [1, () => envelope('get_file_content', { path: escapePath(ctx, prng) })],
      // seed 003's context services: reads of the workspace, confined, bounded.
      [
        1,
        () =>
          envelope('get_folder_content', {
            folderPath: prng.chance(0.6) ? ctx.workspace : escapePath(ctx, prng),
          }),
      ],
      [
        1,
        () =>
          envelope('get_entire_codebase', {
            workspaceFolderUri: prng.pick([
              null,
              ctx.workspace,
              `file://${ctx.workspace}`,
              escapePath(ctx, prng),
            ]),
          }),
      ],
      [1, () => envelope('get_active_file_info', {})],
      [1, () => envelope('get_open_files', {})],
      [
        2,
        () =>
          envelope('search_workspace', {
            query: prng.pick(['alpha', 'BETA', '(a+)+$', '[', '^', '.*', '\\d+', someText(prng) || 'x']),
            isRegex: prng.chance(0.4),
            caseSensitive: prng.chance(0.5),
            ...(prng.chance(0.3) && { maxResults: prng.pick([1, 5, 0, -1, 1e9]) }),
            ...(prng.chance(0.2) && { workspaceFolderUri: escapePath(ctx, prng) }),
          }),
      ],
      [1, () => envelope('check_workspace_trust', prng.chance(0.3) ? {} : { path: filePath(ctx, prng) })],
      [
        1,
        () =>
          envelope('get_filter_info', {
            workspaceFolderUri: prng.chance(0.7) ? null : escapePath(ctx, prng),
          }),
      ],
      [
        1,
        () =>
          envelope('register_active_target', {
            ...(prng.chance(0.7) && { tabId: prng.pick([0, 7, -1, 2 ** 60]) }),
            ...(prng.chance(0.5) && { llmHost: 'gemini.google.com' }),
            ...(prng.chance(0.3) && { session_id: `s-${prng.int(5)}` }),
          }),
      ],
      // Pairing: on an authenticated connection `pair` is no command; before auth (the driver sends
      // pre-auth frames at /pair or /handshake with no token) it is the only one at /pair, and no code is
      // active in a fuzz run. At /handshake only `challenge` and `authenticate` are taken.
      [
        1,
        () =>
          envelope('challenge', {
            nonce: prng.pick(['0'.repeat(64), 'f'.repeat(63), '', 'zz'.repeat(32), 'a'.repeat(64)]),
          }),
      ],
      [1, () => envelope('authenticate', { token: prng.pick(['', 'guess', 'x'.repeat(300)]) })],
      [
        2,
        () =>
          envelope('pair', {
            code: prng.pick([String(prng.int(1_000_000)).padStart(6, '0'), '', '12345', '1234567', 'abcdef']),
            client_name: prng.pick(['fuzz-host', '', 'x'.repeat(300)]),
          }),
      ],
      [
        2,
        () =>
          envelope('propose_change_set', {
            title: 'escape',
            files: [{ path: escapePath(ctx, prng), after: prng.chance(0.3) ? null : someText(prng) }],
          }),
      ],
    ])(),
  unknownMethod: (prng) => envelope(prng.pick(['frob', '__proto__', 'toString', 'change_set_result']), {}),
  limitProbes: (ctx) => {
    const propose = (over: Record<string, unknown>, file: Record<string, unknown> = {}) =>
      envelope('propose_change_set', {
        title: 'limit',
        files: [{ path: 'a.txt', after: 'x\n', ...file }],
        ...over,
      });
    return [
      ...fieldProbes('files[].after', MAX_FILE_BYTES, (v) => propose({}, { after: v })),
      ...fieldProbes('rationale', MAX_NOTE_CHARS, (v) => propose({ rationale: v })),
      ...fieldProbes('title', MAX_LABEL_CHARS, (v) => propose({ title: v })),
      ...fieldProbes('request_approval.command', MAX_NOTE_CHARS, (v) =>
        envelope('request_approval', { kind: 'command', command: v }),
      ),
      ...pairProbes(),
      ...fieldProbes('hello.agent_session_id', MAX_LABEL_CHARS, (v) =>
        envelope('hello', { client_name: 'fuzz', agent_session_id: v }),
      ),
      ...fieldProbes('watch_folder.folder', MAX_PATH_CHARS, (v) =>
        envelope('watch_folder', {
          folder: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}`,
          watch: true,
        }),
      ),
      ...fieldProbes('files[].path', MAX_PATH_CHARS, (v) =>
        propose({}, { path: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}` }),
      ),
      ...fieldProbes('get_folder_content.folderPath', MAX_PATH_CHARS, (v) =>
        envelope('get_folder_content', {
          folderPath: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}`,
        }),
      ),
      ...fieldProbes('get_entire_codebase.workspaceFolderUri', MAX_PATH_CHARS, (v) =>
        envelope('get_entire_codebase', {
          workspaceFolderUri: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}`,
        }),
      ),
      ...fieldProbes('search_workspace.query', SEARCH_MAX_QUERY_CHARS, (v) =>
        envelope('search_workspace', { query: v }),
      ),
      ...fieldProbes('check_workspace_trust.path', MAX_PATH_CHARS, (v) =>
        envelope('check_workspace_trust', { path: `${ctx.workspace}/${v.slice(ctx.workspace.length + 1)}` }),
      ),
      ...fieldProbes('register_active_target.llmHost', MAX_LABEL_CHARS, (v) =>
        envelope('register_active_target', { llmHost: v }),
      ),
      {
        label: `search_workspace.maxResults = limit + 1 (${SEARCH_MAX_RESULTS + 1})`,
        frame: () =>
          text(
            'search_workspace.maxResults over',
            JSON.stringify(envelope('search_workspace', { query: 'x', maxResults: SEARCH_MAX_RESULTS + 1 })),
          ),
      },
      ...frameProbes(envelope('heartbeat', {})),
    ];
  },
};

const headless: ProtocolModel = {
  message: (ctx, prng) => {
    const reviewId =
      prng.chance(0.7) && ctx.liveReviewIds().length > 0
        ? prng.pick(ctx.liveReviewIds())
        : `r-${prng.int(5)}`;
    const fileIndex = prng.pick([0, 0, 1, -1, 2 ** 31]);
    const decision = prng.pick(['accepted', 'rejected', 'pending']);
    const call = (method: string, params: unknown) => ({ id: rpcId++, method, params });
    return prng.weighted<() => Record<string, unknown>>([
      [1, () => call('getSnapshot', {})],
      // The review on screen: a live one, a gone one, none, or an id past the schema's bound.
      [1, () => call('focusReview', { reviewId: prng.pick([reviewId, null, 'r'.repeat(300), 7]) })],
      [1, () => call('showingFile', { reviewId, fileIndex })],
      [1, () => call('undoWrites', { id: prng.pick([reviewId, '', 'r'.repeat(300), 7]) })],
      [2, () => call('getReviewContent', { reviewId })],
      [2, () => call('decideHunks', { reviewId, fileIndex, hunkIndexes: [0, prng.int(5)], decision })],
      [
        2,
        () =>
          call('decideLines', {
            reviewId,
            fileIndex,
            hunkIndex: prng.int(3),
            lines: { base: [prng.int(5)], proposed: [prng.int(5), 1e6] },
            decision,
          }),
      ],
      [1, () => call('decideFile', { reviewId, fileIndex, decision })],
      [1, () => call('decideAll', { reviewId, decision })],
      [2, () => call('editProposal', { reviewId, fileIndex, proposedText: someText(prng) })],
      [1, () => call('undo', { reviewId })],
      [1, () => call('rebase', { reviewId, fileIndex })],
      [1, () => call('submit', { reviewId })],
      [1, () => call('reject', { reviewId, reason: 'fuzz' })],
      [
        1,
        () =>
          call('sendSelection', {
            reviewId,
            fileIndex,
            side: prng.pick(['base', 'proposed', 'neither']),
            startLine: prng.pick([0, 1, -1, 2 ** 31]),
            endLine: prng.pick([0, 3, 1e9]),
          }),
      ],
      [
        1,
        () =>
          call('setFolderWatched', {
            folder: prng.pick([ctx.workspace, escapePath(ctx, prng), '', 7]),
            watched: prng.chance(0.5),
          }),
      ],
      // Connection prompts: a made-up or overlong request id, an answer outside the three; a made-up key.
      [
        1,
        () =>
          call('answerConnectionRequest', {
            requestId: prng.pick(['connect-1', 'connect-2', '', 'c'.repeat(300), 7]),
            answer: prng.pick(['once', 'always', 'deny', 'maybe']),
          }),
      ],
      [1, () => call('revokeTrustedProgram', { key: prng.pick(['name:Clio', 'exe:/usr/bin/node', '', 7]) })],
      [2, () => call('updateSettings', settingsPatch(prng))],
      // Workspace folders: paths that cannot be added (refused) and folders that are not in the workspace
      // to remove (refused). A real folder outside is never added, nor the run's workspace removed: the
      // model's other frames count on what is outside staying outside.
      [
        1,
        () =>
          call('addWorkspaceFolder', {
            folder: prng.pick([
              ...['/', '/etc', '..', '~', '', 7, hugeString(prng, 64 * 1024)],
              // A file, a missing folder, and the workspace itself (already there: a no-op).
              ...[`${ctx.workspace}/${prng.pick(ctx.files)}`, `${ctx.workspace}/nowhere`, ctx.workspace],
            ]),
          }),
      ],
      [
        1,
        () =>
          call('removeWorkspaceFolder', {
            folder: prng.pick(['/', '/nowhere', `${ctx.workspace}/..`, '', null]),
          }),
      ],
      [1, () => call('pickFolder', prng.pick([{}, { folder: '/' }, null]))],
      [
        1,
        () =>
          call('disconnectClient', {
            clientId:
              prng.chance(0.3) && ctx.liveClientIds().length > 0 ? prng.pick(ctx.liveClientIds()) : 'c-1',
          }),
      ],
    ])();
  },
  unknownMethod: (prng) => ({
    id: rpcId++,
    method: prng.pick(['frob', '__proto__', 'constructor', 'toString']),
    params: {},
  }),
  limitProbes: (ctx) => {
    const edit = (proposedText: string) => ({
      id: rpcId++,
      method: 'editProposal',
      params: { reviewId: ctx.liveReviewIds()[0] ?? 'none', fileIndex: 0, proposedText },
    });
    return [
      ...fieldProbes('editProposal.proposedText', MAX_FILE_BYTES, edit),
      ...fieldProbes('reject.reason', MAX_NOTE_CHARS, (reason) => ({
        id: rpcId++,
        method: 'reject',
        params: { reviewId: 'none', reason },
      })),
      ...frameProbes({ id: rpcId++, method: 'getSnapshot', params: {} }),
    ];
  },
};

/**
 * A settings change: valid ones (written to the run's settings.json and applied, auto-apply included) and
 * invalid ones (a chord used twice, values of the wrong kind, unknown or prototype keys, lists too long).
 */
function settingsPatch(prng: Prng): unknown {
  return prng.pick<() => unknown>([
    () => ({ theme: prng.pick(['system', 'light', 'dark']) }),
    () => ({ autoApply: prng.pick([[], ['Claude Code'], ['Clio', 'Gemini CLI'], [' fuzz ']]) }),
    () => ({ notifications: { enabled: prng.chance(0.5), sound: prng.chance(0.5) }, launchAtLogin: false }),
    () => ({ keyMap: prng.pick([{}, { undo: ['Mod+U'] }, { nextHunk: [] }]) }),
    () => ({ extraLockFolders: prng.pick([[], ['~/.fork-ide']]) }),
    () => ({ keyMap: { undo: ['Mod+Y'] } }),
    () => ({ keyMap: { undo: ['Hyper+Q'], frob: ['J'] } }),
    () => ({ theme: prng.pick([7, null, 'blue', '']) }),
    () => ({ notifications: { enabled: 'yes' } }),
    () => ({ autoApply: Array.from({ length: 201 }, (_, i) => `client ${i}`) }),
    () => ({ autoApply: [''] }),
    () => ({ extraLockFolders: ['x'.repeat(5000)] }),
    () => ({ workspaceFolders: ['/'], pausedClients: [] }),
    () => JSON.parse('{"__proto__": {"theme": "dark"}, "constructor": 1}') as unknown,
    () => prng.pick([null, [], 'theme', 7]),
  ])();
}

export const PROTOCOLS: Record<EndpointName, ProtocolModel> = {
  claude,
  gemini,
  copilot,
  clio,
  native,
  headless,
};

/** A valid-looking message with one string field grown to a few MB. */
export function withHugeField(
  message: Record<string, unknown>,
  prng: Prng,
  bytes: number,
): Record<string, unknown> {
  const copy = structuredClone(message);
  const strings: Array<[Record<string, unknown>, string]> = [];
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string') strings.push([value as Record<string, unknown>, key]);
      else visit(inner);
    }
  };
  visit(copy);
  if (strings.length === 0) return { ...copy, huge: hugeString(prng, bytes) };
  const [owner, key] = prng.pick(strings);
  owner[key] = hugeString(prng, bytes);
  return copy;
}
