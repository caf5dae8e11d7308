/**
 * One scripted Codex turn in a temp workspace: the sandbox folders, the Responses stand-in, config.toml,
 * then `codex exec` to its end. Hooks go in first (writeCodexHooks, or writeRecordingHook for a hook that
 * records its stdin and gives a fixed answer), so the DiffTray-hook tests can build on the same steps.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCodexExec, writeCodexHome, type CodexExecResult, type CodexSandboxMode } from './codex-cli';
import { startResponsesStandIn, type ResponsesStandIn, type ResponsesTurn } from './responses-stand-in';
import { makeTempDir } from './temp';

export interface CodexSandbox {
  /** The folder Codex works in (real path). */
  workspace: string;
  home: string;
  /** `$CODEX_HOME` (`<home>/.codex`). */
  codexHome: string;
  tmp: string;
  /** For test files outside the workspace (hook scripts, captures). */
  scratch: string;
  /** Writes files of the workspace (relative paths). */
  writeFiles(files: Record<string, string>): void;
  /** A workspace file's text. */
  readFile(relative: string): string;
  cleanup(): void;
}

/**
 * Temp workspace, HOME, CODEX_HOME, TMPDIR and scratch folder for one test; `workspace` instead of a
 * temp one (e.g. a running DiffTray's, so its hook finds that DiffTray for this folder).
 */
export function makeCodexSandbox(prefix = 'codex', options: { workspace?: string } = {}): CodexSandbox {
  const temp = makeTempDir(prefix);
  const root = realpathSync(temp.dir);
  const [ownWorkspace, home, tmp, scratch] = ['workspace', 'home', 'tmp', 'scratch'].map((name) =>
    path.join(root, name),
  ) as [string, string, string, string];
  const workspace = options.workspace ?? ownWorkspace;
  const codexHome = path.join(home, '.codex');
  for (const dir of [workspace, home, tmp, scratch, codexHome]) mkdirSync(dir, { recursive: true });
  return {
    workspace,
    home,
    codexHome,
    tmp,
    scratch,
    writeFiles: (files) => {
      for (const [relative, text] of Object.entries(files)) {
        const file = path.join(workspace, relative);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    },
    readFile: (relative) => readFileSync(path.join(workspace, relative), 'utf8'),
    cleanup: temp.cleanup,
  };
}

export interface CodexTurnOptions {
  binary: string;
  /** The model's turns; the stand-in ends with "Done." after them. */
  script: ResponsesTurn[];
  prompt?: string;
  /** Runs the sandbox's hooks untrusted (tests only). */
  bypassHookTrust?: boolean;
  sandboxMode?: CodexSandboxMode;
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export interface CodexTurn {
  /** Closed; its records stay readable. */
  standIn: ResponsesStandIn;
  result: CodexExecResult;
}

/** Runs `codex exec` once in `sandbox` against a fresh stand-in playing `script`. */
export async function runCodexTurn(sandbox: CodexSandbox, options: CodexTurnOptions): Promise<CodexTurn> {
  const standIn = await startResponsesStandIn(options.script);
  try {
    writeCodexHome(sandbox.codexHome, { baseUrl: standIn.baseUrl, sandboxMode: options.sandboxMode });
    const result = await runCodexExec({
      binary: options.binary,
      home: sandbox.home,
      codexHome: sandbox.codexHome,
      cwd: sandbox.workspace,
      tmp: sandbox.tmp,
      prompt: options.prompt ?? 'Apply the planned edits.',
      bypassHookTrust: options.bypassHookTrust,
      extraArgs: options.extraArgs,
      env: options.env,
      timeoutMs: options.timeoutMs,
      progress: () =>
        `${standIn.turnsServed()} of ${options.script.length} scripted turns served, ` +
        `${standIn.requestsReceived().length} model requests`,
    });
    return { standIn, result };
  } finally {
    await standIn.close();
  }
}

export interface RecordingHook {
  /** The hooks.json command line that runs it. */
  command: string;
  /** Every stdin it was given, parsed, in order. */
  inputs(): Array<Record<string, unknown>>;
}

/** What a recording hook does after logging its stdin. */
export interface RecordingHookReply {
  /**
   * Printed as JSON on stdout for that stdin's `tool_name` (or, for an event about no tool, its
   * `hook_event_name`); one without an answer gets nothing (no decision).
   */
  answers?: Record<string, unknown>;
  /** On a Stop whose `stop_hook_active` is false, `{"decision":"block","reason":<this>}`: Codex goes on. */
  blockFirstStop?: string;
  /** Written to stderr. */
  stderr?: string;
  /** Its exit code (0 unless given). */
  exitCode?: number;
}

/**
 * A hook script in the sandbox's scratch folder that appends each stdin to a log, then answers as
 * `reply` says.
 */
export function writeRecordingHook(
  sandbox: CodexSandbox,
  name: string,
  reply: RecordingHookReply = {},
): RecordingHook {
  const script = path.join(sandbox.scratch, `${name}.cjs`);
  const log = path.join(sandbox.scratch, `${name}.stdin.jsonl`);
  writeFileSync(log, '');
  writeFileSync(
    script,
    [
      "const fs = require('node:fs');",
      "const input = JSON.parse(fs.readFileSync(0, 'utf8'));",
      `fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(input) + '\\n');`,
      `const answers = ${JSON.stringify(reply.answers ?? {})};`,
      `const block = ${JSON.stringify(reply.blockFirstStop ?? null)};`,
      "const firstStop = input.hook_event_name === 'Stop' && input.stop_hook_active === false;",
      'const answer = block !== null && firstStop ? { decision: "block", reason: block }',
      '  : answers[input.tool_name ?? input.hook_event_name];',
      'if (answer !== undefined) process.stdout.write(JSON.stringify(answer));',
      `process.stderr.write(${JSON.stringify(reply.stderr ?? '')});`,
      `process.exitCode = ${reply.exitCode ?? 0};`,
      '',
    ].join('\n'),
  );
  return {
    command: `${shellQuote(process.execPath)} ${shellQuote(script)}`,
    inputs: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Single-quoted for a POSIX shell, which runs hook commands. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
