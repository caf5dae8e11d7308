/**
 * Issue 25's property for the agents whose edit tools are codecs (Gemini, Copilot, Qwen) and for Claude
 * Code: take the agent's own tool call, replay it on the file as the agent would (the proposal), let the
 * person take and leave hunks (the composed text DiffTray hands back), then the rewritten input, applied
 * the way that agent applies it, writes exactly the composed text; or there is none, and only where the
 * tool's module documents that the agent cannot write such a text. Codex: codex-rewrite-replay.property.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayEdit, toCrlf, toLf, detectLineEndings } from '../../../shared/claude-code/edit-replay';
import { updatedInputFor } from '../../../shared/claude-code/updated-input';
import {
  decodeEdit,
  editCall,
  findTool,
  rewriteEdit,
  type EditTool,
  type ToolInput,
} from '../../../shared/hooks/codec';
import { COPILOT_EDIT_TOOLS } from '../../../shared/hooks/copilot';
import { GEMINI_EDIT_TOOLS } from '../../../shared/hooks/gemini';
import { QWEN_EDIT_TOOLS } from '../../../shared/hooks/qwen';
import {
  composedFor,
  decisionChoiceArb,
  isPlainCase,
  RewriteTally,
  sliceOf,
  textPairArb,
  uniqueOr,
} from '../../support/rewrite-cases';

/** Sized for a few seconds per agent on a slow, shared 2-core machine. */
const RUNS = 300;
const FILE = '/work/project/notes.txt';

/** A tool call and the file it meets (null: no such file). */
interface CallCase {
  fileText: string | null;
  input: ToolInput;
}

/**
 * An old/new-string call: old_string a span of the file as the agent sees it (`view`), widened to the
 * whole file when not unique; new_string the same span of a text derived from the file. Or, where the
 * tool creates files with an empty old_string, a new file.
 */
function oldNewCallArb(
  keys: { path: string; oldKey: string; newKey: string },
  view: (fileText: string) => string,
  createsFiles: boolean,
): fc.Arbitrary<CallCase> {
  return fc
    .record({ pair: textPairArb, from: fc.nat(), to: fc.nat(), newFile: fc.boolean() })
    .map(({ pair, from, to, newFile }) => {
      if (createsFiles && newFile) {
        return { fileText: null, input: { [keys.path]: FILE, [keys.oldKey]: '', [keys.newKey]: pair.other } };
      }
      const seen = view(pair.base);
      const oldString = uniqueOr(seen, sliceOf(seen, from, to));
      const newString = oldString === seen ? pair.other : sliceOf(pair.other, from, to);
      return {
        fileText: pair.base,
        input: { [keys.path]: FILE, [keys.oldKey]: oldString, [keys.newKey]: newString },
      };
    });
}

/** A whole-content call: the derived text as content, over the file or (where allowed) a new file. */
function contentCallArb(
  keys: { path: string; contentKey: string },
  files: 'existing-or-new' | 'new-only',
): fc.Arbitrary<CallCase> {
  return fc.record({ pair: textPairArb, exists: fc.boolean() }).map(({ pair, exists }) => ({
    fileText: exists && files === 'existing-or-new' ? pair.base : null,
    input: { [keys.path]: FILE, [keys.contentKey]: pair.other },
  }));
}

const hasCr = (...texts: (string | null)[]) => texts.some((text) => text?.includes('\r') === true);
const hasBom = (...texts: (string | null)[]) => texts.some((text) => text?.includes('\uFEFF') === true);
const endsWithNewline = (text: string) => toLf(text).endsWith('\n');

/** Unwritable texts, as each module's header documents them; [] means the rewrite must exist. */
type Unwritable = (fileText: string | null, composed: string) => string[];

const LINE_ENDINGS = 'line endings: the agent writes the file with its own';

const geminiReplace: Unwritable = (fileText, composed) =>
  fileText === null
    ? []
    : [
        ...(hasCr(fileText, composed) ? [LINE_ENDINGS] : []),
        ...(endsWithNewline(fileText) === endsWithNewline(composed)
          ? []
          : ['final newline: Gemini restores the file’s final-newline state']),
      ];
const geminiWriteFile: Unwritable = (fileText, composed) => [
  ...(fileText !== null && hasCr(fileText, composed) ? [LINE_ENDINGS] : []),
  ...(composed.includes('\\') ? ['backslash escapes: Gemini may unescape content'] : []),
];
const nothingUnwritable: Unwritable = () => [];
const copilotEdit: Unwritable = (fileText, composed) =>
  fileText !== null && hasCr(fileText, composed)
    ? ["line endings: Copilot writes new_str's line breaks as the file's more frequent one"]
    : [];
const qwenExisting: Unwritable = (fileText, composed) =>
  fileText === null
    ? []
    : [
        ...(hasCr(fileText, composed) ? [LINE_ENDINGS] : []),
        ...(hasBom(fileText, composed) ? ['BOM: Qwen reads a file without it and writes it back'] : []),
      ];

interface CodecToolCase {
  agent: string;
  tools: readonly EditTool[];
  toolName: string;
  calls: fc.Arbitrary<CallCase>;
  unwritable: Unwritable;
}

const lfView = (text: string) => toLf(text);
const CODEC_CASES: CodecToolCase[] = [
  {
    agent: 'Gemini',
    tools: GEMINI_EDIT_TOOLS,
    toolName: 'replace',
    calls: oldNewCallArb({ path: 'file_path', oldKey: 'old_string', newKey: 'new_string' }, lfView, true),
    unwritable: geminiReplace,
  },
  {
    agent: 'Gemini',
    tools: GEMINI_EDIT_TOOLS,
    toolName: 'write_file',
    calls: contentCallArb({ path: 'file_path', contentKey: 'content' }, 'existing-or-new'),
    unwritable: geminiWriteFile,
  },
  {
    agent: 'Copilot',
    tools: COPILOT_EDIT_TOOLS,
    toolName: 'edit',
    calls: oldNewCallArb({ path: 'path', oldKey: 'old_str', newKey: 'new_str' }, (text) => text, false),
    unwritable: copilotEdit,
  },
  {
    agent: 'Copilot',
    tools: COPILOT_EDIT_TOOLS,
    toolName: 'create',
    calls: contentCallArb({ path: 'path', contentKey: 'file_text' }, 'new-only'),
    unwritable: nothingUnwritable,
  },
  {
    agent: 'Qwen',
    tools: QWEN_EDIT_TOOLS,
    toolName: 'edit',
    calls: oldNewCallArb(
      { path: 'file_path', oldKey: 'old_string', newKey: 'new_string' },
      (text) => toLf(text.replace(/^\uFEFF/, '')),
      true,
    ),
    unwritable: qwenExisting,
  },
  {
    agent: 'Qwen',
    tools: QWEN_EDIT_TOOLS,
    toolName: 'write_file',
    calls: contentCallArb({ path: 'file_path', contentKey: 'content' }, 'existing-or-new'),
    unwritable: qwenExisting,
  },
];

/** What the agent writes for `input` over `fileText`, through the codec's own parse and replay. */
function codecWrites(
  tools: readonly EditTool[],
  toolName: string,
  input: ToolInput,
  fileText: string | null,
) {
  const tool = findTool(tools, toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  const call = editCall(tool, input, '/work/project');
  if (call.kind !== 'edit') throw new Error(`${toolName}: ${call.kind}`);
  return { call, decoded: decodeEdit(tools, call, fileText) };
}

describe.each(CODEC_CASES)('$agent $toolName: the rewrite replays to the composed text', (tc) => {
  it('byte for byte, or none only where the agent documents it cannot write the text', () => {
    const tally = new RewriteTally();
    fc.assert(
      fc.property(tc.calls, decisionChoiceArb, ({ fileText, input }, choice) => {
        const { call, decoded } = codecWrites(tc.tools, tc.toolName, input, fileText);
        if (decoded.kind !== 'review') return; // the agent would fail or match loosely: no review
        const composed = composedFor(decoded.base, decoded.proposed, choice);
        if (composed === decoded.base) return; // nothing kept: a deny, not a rewrite
        const rewritten = rewriteEdit(tc.tools, call, decoded.base, fileText !== null, composed);
        tally.count(decoded.base, decoded.proposed, composed, rewritten !== null);
        const reasons = tc.unwritable(fileText, composed);
        if (isPlainCase(decoded.base, composed)) expect(rewritten).not.toBeNull();
        if (rewritten === null) {
          expect(reasons, `no rewrite for ${JSON.stringify({ fileText, composed })}`).not.toEqual([]);
          return;
        }
        // The same tool on the same file, written exactly as composed when the agent applies it.
        const replay = codecWrites(tc.tools, tc.toolName, rewritten, fileText);
        expect(replay.call.filePath).toBe(FILE);
        expect(replay.decoded).toMatchObject({ kind: 'review', proposed: composed });
      }),
      { numRuns: RUNS },
    );
    tally.expectEnough(RUNS, 0.7);
  });
});

/** Claude writes an Edit's result with the file's line endings throughout (edit-replay.ts). */
const inClaudeEndings = (fileText: string, text: string) =>
  detectLineEndings(fileText) === 'CRLF' ? toCrlf(text) : toLf(text);

describe('Claude Code: the updated input replays to the composed text', () => {
  const cases = [
    {
      toolName: 'Edit' as const,
      calls: oldNewCallArb({ path: 'file_path', oldKey: 'old_string', newKey: 'new_string' }, lfView, true),
    },
    {
      toolName: 'Write' as const,
      calls: contentCallArb({ path: 'file_path', contentKey: 'content' }, 'existing-or-new'),
    },
  ];
  it.each(cases)(
    '$toolName: byte for byte, or only the documented line-ending inexactness',
    ({ toolName, calls }) => {
      const tally = new RewriteTally();
      fc.assert(
        fc.property(calls, decisionChoiceArb, ({ fileText, input }, choice) => {
          const proposal = replayEdit(toolName, input, fileText);
          if (!proposal.applies) return;
          const composed = composedFor(proposal.base, proposal.proposed, choice);
          if (composed === proposal.base) return;
          const updated = updatedInputFor(toolName, input, proposal.base, composed);
          const replay = updated === null ? null : replayEdit(toolName, updated, fileText);
          const exact = replay?.applies === true && replay.proposed === composed;
          tally.count(proposal.base, proposal.proposed, composed, exact);
          if (isPlainCase(proposal.base, composed)) expect(exact).toBe(true);
          if (exact) return;
          // Claude Code keeps a file's byte-order mark, so a reviewer's text without it cannot be written
          // (updated-input.ts): refused, never written otherwise.
          if (proposal.base.startsWith('\uFEFF') && !composed.startsWith('\uFEFF')) {
            expect(updated).toBeNull();
            return;
          }
          // updated-input.ts: a mix of line endings (or lone "\r") comes back in Claude's line endings, and a
          // text that differs from the file only in line endings cannot be written by an Edit at all.
          expect(toolName).toBe('Edit');
          expect(hasCr(fileText, composed), JSON.stringify({ fileText, composed })).toBe(true);
          if (replay === null) expect(toLf(composed)).toBe(toLf(proposal.base));
          else
            expect(replay).toMatchObject({
              applies: true,
              proposed: inClaudeEndings(proposal.base, composed),
            });
        }),
        { numRuns: RUNS },
      );
      tally.expectEnough(RUNS, 0.7);
    },
  );
});
