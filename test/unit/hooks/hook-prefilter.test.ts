/**
 * The hook's first step on real files in a temp DIFFTRAY_HOME: what it settles by itself, and that a
 * planted FIFO, a link, a stale lock or a stale pauses file never hangs it or counts as a live DiffTray.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prefilterHook } from '../../../src-main/cli/hooks/hook-prefilter';
import { makeTempDir } from '../../support/temp';

let temp: ReturnType<typeof makeTempDir>;
let home: string;
const env = () => ({ DIFFTRAY_HOME: home });
beforeEach(() => {
  temp = makeTempDir('prefilter');
  home = path.join(temp.dir, '.difftray');
  mkdirSync(home);
});
afterEach(() => temp.cleanup());

/** A pid no process has: a child that ran and exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

const gemini = (event: string, tool_name: string) =>
  JSON.stringify({ hook_event_name: event, session_id: 's', tool_name, tool_input: { file_path: 'a' } });
const liveLock = () => writeFileSync(path.join(home, '4242.lock'), JSON.stringify({ pid: process.pid }));

describe('the hook first step', () => {
  it('settles other events, tools not reviewed and bad JSON silently or with a reason', () => {
    liveLock();
    expect(prefilterHook('gemini', undefined, gemini('SessionStart', 'replace'), env())).toEqual({
      kind: 'done',
    });
    expect(prefilterHook('gemini', undefined, gemini('BeforeTool', 'read_file'), env())).toEqual({
      kind: 'done',
    });
    expect(prefilterHook('copilot', 'postToolUse', '{"toolName":"edit"}', env())).toEqual({ kind: 'done' });
    expect(prefilterHook('gemini', undefined, '{oops', env())).toEqual({
      kind: 'done',
      why: 'the hook input on stdin is not JSON',
    });
  });

  it('passes a reviewed call on while a DiffTray lives; Claude Code reviews every tool its matcher sends', () => {
    liveLock();
    expect(prefilterHook('gemini', undefined, gemini('BeforeTool', 'replace'), env()).kind).toBe('review');
    const claude = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'WebFetch', tool_input: {} });
    expect(prefilterHook('claude-code', undefined, claude, env()).kind).toBe('review');
  });

  it('DiffTray not running: no lock, a stale lock, a FIFO or a link in its place', () => {
    const call = gemini('BeforeTool', 'replace');
    const notRunning = { kind: 'done', why: `DiffTray is not running (no lock file in ${home})` };
    expect(prefilterHook('gemini', undefined, call, env())).toEqual(notRunning);
    writeFileSync(path.join(home, '1.lock'), JSON.stringify({ pid: deadPid() }));
    expect(prefilterHook('gemini', undefined, call, env())).toEqual(notRunning);
    execFileSync('mkfifo', [path.join(home, '2.lock')]);
    const target = path.join(temp.dir, 'elsewhere.json');
    writeFileSync(target, JSON.stringify({ pid: process.pid }));
    symlinkSync(target, path.join(home, '3.lock'));
    expect(prefilterHook('gemini', undefined, call, env())).toEqual(notRunning);
    // A host paired with a DiffTray elsewhere: the full hook finds it through paired.json.
    writeFileSync(path.join(home, 'paired.json'), '{}');
    expect(prefilterHook('gemini', undefined, call, env()).kind).toBe('review');
  });

  it('paused: only by the pauses file of a live DiffTray, only for that agent', () => {
    liveLock();
    const pauses = (pid: number) =>
      writeFileSync(
        path.join(home, 'hook-pauses.json'),
        JSON.stringify({ pid, paused: ['gemini-hooks:Gemini CLI'] }),
      );
    pauses(deadPid());
    expect(prefilterHook('gemini', undefined, gemini('BeforeTool', 'replace'), env()).kind).toBe('review');
    pauses(process.pid);
    expect(prefilterHook('gemini', undefined, gemini('BeforeTool', 'replace'), env())).toEqual({
      kind: 'done',
      why: 'reviews from Gemini CLI are paused in DiffTray',
    });
    const qwen = JSON.stringify({ hook_event_name: 'PermissionRequest', tool_name: 'edit', tool_input: {} });
    expect(prefilterHook('qwen', undefined, qwen, env()).kind).toBe('review');
  });

  it("every agent's prompt and end-of-turn events go on while a DiffTray lives; Qwen's PreToolUse only for its tools", () => {
    const events: Array<[Parameters<typeof prefilterHook>[0], string | undefined, object]> = [
      ['claude-code', undefined, { hook_event_name: 'UserPromptSubmit', prompt: 'p' }],
      ['claude-code', undefined, { hook_event_name: 'Stop', stop_hook_active: false }],
      ['codex', undefined, { hook_event_name: 'UserPromptSubmit', prompt: 'p' }],
      ['codex', undefined, { hook_event_name: 'Stop', stop_hook_active: false }],
      ['gemini', undefined, { hook_event_name: 'BeforeAgent', prompt: 'p' }],
      ['gemini', undefined, { hook_event_name: 'AfterAgent', stop_hook_active: false }],
      ['copilot', 'userPromptSubmitted', { prompt: 'p' }],
      ['copilot', 'agentStop', { stopReason: 'end_turn', stop_hook_active: false }],
      ['qwen', undefined, { hook_event_name: 'UserPromptSubmit', prompt: 'p' }],
      ['qwen', undefined, { hook_event_name: 'Stop', stop_hook_active: false }],
      ['qwen', undefined, { hook_event_name: 'PreToolUse', tool_name: 'edit', tool_input: {} }],
    ];
    const stdinOf = (fields: object) => JSON.stringify({ session_id: 's', ...fields });
    for (const [agent, event, fields] of events) {
      expect(prefilterHook(agent, event, stdinOf(fields), env()).kind).toBe('done');
    }
    liveLock();
    for (const [agent, event, fields] of events) {
      expect(prefilterHook(agent, event, stdinOf(fields), env()).kind, `${agent} ${event ?? ''}`).toBe(
        'review',
      );
    }
    const read = stdinOf({ hook_event_name: 'PreToolUse', tool_name: 'read_file', tool_input: {} });
    expect(prefilterHook('qwen', undefined, read, env())).toEqual({ kind: 'done' });
    // Another agent's events are not ours: Gemini has no Stop.
    expect(prefilterHook('gemini', undefined, stdinOf({ hook_event_name: 'Stop' }), env())).toEqual({
      kind: 'done',
    });
  });

  it('an after-tool hook goes on only when some note is kept', () => {
    expect(prefilterHook('gemini', undefined, gemini('AfterTool', 'replace'), env())).toEqual({
      kind: 'done',
    });
    mkdirSync(path.join(home, 'hook-notes'));
    writeFileSync(path.join(home, 'hook-notes', 'x.txt'), 'note');
    expect(prefilterHook('gemini', undefined, gemini('AfterTool', 'replace'), env()).kind).toBe('review');
  });
});

describe('the end of a turn', () => {
  const stop = (session_id: string) =>
    JSON.stringify({ hook_event_name: 'Stop', session_id, stop_hook_active: false });
  const turns = (following: string[], pid = process.pid) =>
    writeFileSync(path.join(home, 'turns.json'), JSON.stringify({ pid, following }));

  it('ends at once when DiffTray follows no file of this session’s turn', () => {
    liveLock();
    turns(['Claude Code\u0000other']);
    expect(prefilterHook('claude-code', undefined, stop('s1'), env())).toEqual({ kind: 'done' });
    // Copilot spells it sessionId, and names its event on the command line.
    const copilot = JSON.stringify({ sessionId: 's1' });
    expect(prefilterHook('copilot', 'agentStop', copilot, env())).toEqual({ kind: 'done' });
  });

  it('asks DiffTray when the session is listed, or when it cannot be sure', () => {
    liveLock();
    turns(['Claude Code\u0000s1']);
    expect(prefilterHook('claude-code', undefined, stop('s1'), env()).kind).toBe('review');
    // No session id, a file from a DiffTray that is gone, no file, a FIFO in its place.
    expect(prefilterHook('claude-code', undefined, '{"hook_event_name":"Stop"}', env()).kind).toBe('review');
    turns([], deadPid());
    expect(prefilterHook('claude-code', undefined, stop('s1'), env()).kind).toBe('review');
    execFileSync('rm', [path.join(home, 'turns.json')]);
    expect(prefilterHook('claude-code', undefined, stop('s1'), env()).kind).toBe('review');
    execFileSync('mkfifo', [path.join(home, 'turns.json')]);
    expect(prefilterHook('claude-code', undefined, stop('s1'), env()).kind).toBe('review');
  });

  it('the prompt hook always reaches DiffTray while it runs, and nothing when it does not', () => {
    const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: 'go' });
    expect(prefilterHook('claude-code', undefined, prompt, env()).kind).toBe('done');
    liveLock();
    expect(prefilterHook('claude-code', undefined, prompt, env()).kind).toBe('review');
  });
});
