/**
 * Issue 25's property for Codex: the model's own apply_patch (an update and an added file) applied as
 * Codex applies it gives the proposals; the person takes and leaves hunks of each; the patch DiffTray
 * answers with (rewritePatch), parsed and applied as Codex does, writes exactly each composed text and
 * nothing else — also when sent through the shell as a heredoc. It fails only where patch-rewrite.ts
 * documents that Codex cannot write the text: an updated file without a final line break, or a line
 * ending that is not the file's first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch, readSourceFile, type FileChange } from '../../../shared/codex/patch-apply';
import { parsePatch } from '../../../shared/codex/patch-parse';
import { rewritePatch, type AcceptedFile } from '../../../shared/codex/patch-rewrite';
import { patchFromShellScript, shellScriptForPatch } from '../../../shared/codex/shell-heredoc';
import { diffLines } from '../../../shared/diff';
import {
  composedFor,
  decisionChoiceArb,
  isPlainCase,
  RewriteTally,
  textPairArb,
} from '../../support/rewrite-cases';

/** Sized for a few seconds on a slow, shared 2-core machine. */
const RUNS = 300;
const UPDATED = 'src/notes.txt';
const ADDED = 'src/new.txt';

/** The files this property keeps: an update and an added file (deletes have no text to compose). */
type Kept = Extract<AcceptedFile, { kind: 'update' | 'add' }>;

const textsOf = (text: string) => readSourceFile(text).lines.map((line) => line.text);

/**
 * The Update File hunk a model writes from `base` to `other`: one chunk from the first change to the
 * last, with `context` lines around. Null when there is no change.
 */
function modelUpdate(base: string, other: string, context: number): string[] | null {
  const baseTexts = textsOf(base);
  const otherTexts = textsOf(other);
  const changes = diffLines(baseTexts, otherTexts);
  const first = changes[0];
  const last = changes[changes.length - 1];
  if (first === undefined || last === undefined) return null;
  const lines = [`*** Update File: ${UPDATED}`, '@@'];
  let at = Math.max(0, first.baseStart - context);
  for (const change of changes) {
    for (; at < change.baseStart; at++) lines.push(` ${baseTexts[at]}`);
    for (let i = change.baseStart; i < change.baseEnd; i++) lines.push(`-${baseTexts[i]}`);
    for (let i = change.proposedStart; i < change.proposedEnd; i++) lines.push(`+${otherTexts[i]}`);
    at = change.baseEnd;
  }
  for (const end = Math.min(baseTexts.length, last.baseEnd + context); at < end; at++)
    lines.push(` ${baseTexts[at]}`);
  return lines;
}

const patchOf = (lines: readonly string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

/** What Codex writes for `patch` with `files` as they are now; null when Codex refuses it. */
function codexWrites(patch: string, files: Record<string, string>): FileChange[] | null {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return null;
  const applied = applyPatch(parsed.hunks, (path) => files[path] ?? null);
  return applied.ok ? applied.files : null;
}

/** Why Codex cannot be made to write `composed` over `base` (patch-rewrite.ts); [] when it must. */
function unwritable(file: Kept): string[] {
  if (file.kind !== 'update') return [];
  const reasons: string[] = [];
  if (file.text !== '' && !/[\r\n]$/.test(file.text))
    reasons.push('Codex ends an updated file with a line break');
  // Lines a chunk writes take the file's first line ending; the whole file as one chunk writes them all so.
  const { preferred } = readSourceFile(file.base);
  if (readSourceFile(file.text).lines.some((line) => line.ending !== null && line.ending !== preferred))
    reasons.push('Codex writes new lines with the file’s first line ending');
  return reasons;
}

const callArb = fc.record({
  update: textPairArb,
  context: fc.nat(3),
  added: textPairArb,
  updateChoice: decisionChoiceArb,
  addChoice: decisionChoiceArb,
});

describe('Codex: the rewritten patch replays to the composed texts', () => {
  it('update and add, byte for byte, or a failure only where Codex cannot write the text', () => {
    const tally = new RewriteTally();
    fc.assert(
      fc.property(callArb, ({ update, context, added, updateChoice, addChoice }) => {
        const updateLines = modelUpdate(update.base, update.other, context);
        if (updateLines === null) return;
        const addLines = [`*** Add File: ${ADDED}`, ...textsOf(added.other).map((text) => `+${text}`)];
        const files = { [UPDATED]: update.base };
        const proposal = codexWrites(patchOf([...updateLines, ...addLines]), files);
        if (proposal === null) return; // Codex would refuse the model's patch: no review
        expect(proposal.map((file) => [file.kind, file.path])).toEqual([
          ['update', UPDATED],
          ['add', ADDED],
        ]);
        const [updated, add] = proposal as [FileChange, FileChange];
        const accepted: Kept[] = [];
        const updateText = composedFor(update.base, updated.text!, updateChoice);
        // A file whose every hunk was left is rejected whole and left out of the patch (codex.ts).
        if (updateText !== update.base) {
          accepted.push({
            kind: 'update',
            path: UPDATED,
            movePath: null,
            base: update.base,
            text: updateText,
          });
        }
        const addText = composedFor('', add.text!, addChoice);
        if (addText !== '') accepted.push({ kind: 'add', path: ADDED, text: addText });
        if (accepted.length === 0) return;

        const rewrite = rewritePatch(accepted);
        for (const file of accepted) {
          const base = file.kind === 'update' ? file.base : '';
          const proposed = file.kind === 'update' ? updated.text! : add.text!;
          tally.count(base, proposed, file.text, rewrite.ok);
        }
        const plain = accepted.every((file) => file.kind === 'add' || isPlainCase(file.base, file.text));
        if (plain) expect(rewrite).toMatchObject({ ok: true });
        if (!rewrite.ok) {
          expect(rewrite.reason).toMatch(/line break|line endings/);
          expect(accepted.flatMap(unwritable), rewrite.reason).not.toEqual([]);
          return;
        }
        const wanted = accepted.map((file) => [file.path, file.text]);
        const written = codexWrites(rewrite.patch, files);
        expect(written?.map((file) => [file.path, file.text])).toEqual(wanted);
        // The same patch through the shell, as a heredoc after `cd <dir> &&`, reads back the same.
        const viaShell = patchFromShellScript(shellScriptForPatch(rewrite.patch, 'cd sub && '));
        expect(viaShell).toMatchObject({ workdir: 'sub', prefix: 'cd sub && ' });
        expect(codexWrites(viaShell!.patch, files)?.map((file) => [file.path, file.text])).toEqual(wanted);
      }),
      { numRuns: RUNS },
    );
    tally.expectEnough(RUNS, 0.7);
  });
});
