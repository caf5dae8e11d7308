import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../shared/diff';
import { applyPatch } from '../../../shared/codex/patch-apply';
import { parsePatch } from '../../../shared/codex/patch-parse';
import { rewritePatch, type AcceptedFile } from '../../../shared/codex/patch-rewrite';

/** What Codex writes for each file of `patch`, given the files now (null for a delete). */
function codexWrites(patch: string, files: Record<string, string>): (string | null)[] {
  const parsed = parsePatch(patch);
  if (!parsed.ok) throw new Error(parsed.reason);
  const applied = applyPatch(parsed.hunks, (path) => files[path] ?? null);
  if (!applied.ok) throw new Error(applied.reason);
  return applied.files.map((file) => file.text);
}

function rewritten(files: AcceptedFile[]): string {
  const rewrite = rewritePatch(files);
  if (!rewrite.ok) throw new Error(rewrite.reason);
  return rewrite.patch;
}

/** Lines that look alike to Codex's loose matching, so a first match can land on the wrong one. */
const LINE = fc.constantFrom(
  'a',
  'a ',
  ' a',
  'b',
  '',
  '  ',
  'x \u2014 y',
  'x - y',
  '*** End of File',
  '@@ a',
);

/** The lines of `base` with only the accepted runs of the change to `proposed` applied. */
function composeLines(base: string[], proposed: string[], accepted: boolean[]): string[] {
  const out: string[] = [];
  let at = 0;
  diffLines(base, proposed).forEach((change, i) => {
    out.push(...base.slice(at, change.baseStart));
    if (accepted[i] ?? false) out.push(...proposed.slice(change.proposedStart, change.proposedEnd));
    else out.push(...base.slice(change.baseStart, change.baseEnd));
    at = change.baseEnd;
  });
  out.push(...base.slice(at));
  return out;
}

describe('rewritePatch', () => {
  it('writes an update, an add and a delete that Codex applies to exactly the given texts', () => {
    const files = { 'src/a.ts': 'one\ntwo\nthree\n', 'old.txt': 'bye\n' };
    const patch = rewritten([
      { kind: 'update', path: 'src/a.ts', movePath: null, base: files['src/a.ts'], text: 'one\n2\nthree\n' },
      { kind: 'add', path: 'new.txt', text: 'hello\n\nworld\n' },
      { kind: 'delete', path: 'old.txt' },
    ]);
    expect(patch).toBe(
      [
        '*** Begin Patch',
        '*** Update File: src/a.ts',
        '@@',
        ' one',
        '-two',
        '+2',
        ' three',
        '*** Add File: new.txt',
        '+hello',
        '+',
        '+world',
        '*** Delete File: old.txt',
        '*** End Patch',
        '',
      ].join('\n'),
    );
    expect(codexWrites(patch, files)).toEqual(['one\n2\nthree\n', 'hello\n\nworld\n', null]);
  });

  it('gives a change after repeated lines the context that makes Codex’s first match land on it', () => {
    const base = 'x\nx\nx\nx\nx\nx\nx\nx\n';
    const text = 'x\nx\nx\nx\nx\nx\nX\nx\n';
    const patch = rewritten([{ kind: 'update', path: 'f', movePath: null, base, text }]);
    expect(codexWrites(patch, { f: base })).toEqual([text]);
  });

  it('keeps a move with no change to the text, and CRLF', () => {
    const base = 'a\r\nb\r\n';
    const patch = rewritten([{ kind: 'update', path: 'f', movePath: 'g', base, text: base }]);
    expect(patch).toContain('*** Move to: g\n');
    expect(codexWrites(patch, { f: base })).toEqual([base]);
  });

  it('refuses texts Codex cannot be made to write', () => {
    const update = (base: string, text: string) =>
      rewritePatch([{ kind: 'update', path: 'f', movePath: null, base, text }]);
    expect(update('a\nb', 'A\nb')).toEqual({
      ok: false,
      reason: 'f: Codex always ends an updated file with a line break',
    });
    expect(rewritePatch([{ kind: 'add', path: 'f', text: 'a\r\n' }]).ok).toBe(false);
    expect(rewritePatch([{ kind: 'add', path: 'f', text: 'a' }]).ok).toBe(false);
    expect(rewritePatch([{ kind: 'delete', path: ' f' }]).ok).toBe(false);
    expect(rewritePatch([])).toEqual({ ok: false, reason: 'Nothing was accepted' });
  });

  it('property: Codex applying the rewrite writes exactly the composed text (repeats, CRLF, lone CR, no final newline)', () => {
    fc.assert(
      fc.property(
        fc.array(LINE, { maxLength: 14 }),
        fc.array(LINE, { maxLength: 14 }),
        fc.array(fc.boolean(), { maxLength: 14 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        (baseLines, proposedLines, accepted, eol, finalNewline) => {
          const joined = baseLines.join(eol);
          const base = finalNewline && baseLines.length > 0 ? joined + eol : joined;
          // An updated file always ends in a newline in Codex's hands: the composed text does too.
          const composedLines = composeLines(baseLines, proposedLines, accepted);
          // A file with no line break yet gets LF from Codex, whatever the rest of the run uses.
          const written = /[\r\n]/.test(base) ? eol : '\n';
          const text = composedLines.map((line) => line + written).join('');
          // A base whose only line is empty with no newline reads as no lines at all: skip that case.
          fc.pre(!(base === '' && baseLines.length > 0));
          const rewrite = rewritePatch([{ kind: 'update', path: 'f', movePath: null, base, text }]);
          // Nothing to change: no patch (the hook denies instead).
          if (text === base) expect(rewrite).toEqual({ ok: false, reason: 'Nothing was accepted' });
          else if (!rewrite.ok) throw new Error(rewrite.reason);
          else expect(codexWrites(rewrite.patch, { f: base })).toEqual([text]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: with mixed line endings the rewrite is exact or refused, never wrong', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(LINE, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 10 }),
        fc.array(LINE, { maxLength: 10 }),
        fc.array(fc.boolean(), { maxLength: 10 }),
        (base, proposedLines, accepted) => {
          const baseText = base.map(([line, eol]) => line + eol).join('');
          const preferred = base[0]?.[1] ?? '\n';
          const endings = new Map<string, string>(base.map(([line, eol]) => [line, eol]));
          const composed = composeLines(
            base.map(([line]) => line),
            proposedLines,
            accepted,
          );
          // Roughly what a review gives: kept lines with an ending they had, new ones the file's first.
          const text = composed.map((line) => line + (endings.get(line) ?? preferred)).join('');
          const rewrite = rewritePatch([{ kind: 'update', path: 'f', movePath: null, base: baseText, text }]);
          if (text === baseText) expect(rewrite.ok).toBe(false);
          else if (rewrite.ok) expect(codexWrites(rewrite.patch, { f: baseText })).toEqual([text]);
          else expect(rewrite.reason).toMatch(/line endings/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
