/** Forms taken from the heredoc tests of openai/codex's codex-rs/apply-patch/src/lib.rs. */
import { describe, expect, it } from 'vitest';
import { patchFromShellScript, shellScriptForPatch } from '../../../shared/codex/shell-heredoc';
import { parsePatch } from '../../../shared/codex/patch-parse';

const PATCH = '*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch';
const script = (prefix: string, suffix = '') => `${prefix}apply_patch <<'PATCH'\n${PATCH}\nPATCH${suffix}`;

describe('patchFromShellScript', () => {
  it('reads a heredoc fed to apply_patch or applypatch, with any quoting of the delimiter', () => {
    expect(patchFromShellScript(script(''))).toEqual({ patch: PATCH, workdir: null, prefix: '' });
    expect(patchFromShellScript(`applypatch <<EOF\n${PATCH}\n\nEOF\n`)?.patch).toBe(PATCH);
    expect(patchFromShellScript(`apply_patch <<"END"\n${PATCH}\nEND\n`)?.patch).toBe(PATCH);
  });

  it('reads a leading cd as the folder the patch is relative to', () => {
    expect(patchFromShellScript(script('cd foo && '))).toEqual({
      patch: PATCH,
      workdir: 'foo',
      prefix: 'cd foo && ',
    });
    expect(patchFromShellScript(script("cd 'foo bar' && "))?.workdir).toBe('foo bar');
    expect(patchFromShellScript(script('cd "foo bar" && '))?.workdir).toBe('foo bar');
  });

  it('is not a patch with anything else in the script (as Codex)', () => {
    for (const prefix of [
      'cd foo; ',
      'cd bar || ',
      'cd bar | ',
      'echo foo && ',
      'cd foo && cd bar && ',
      'cd foo bar && ',
    ]) {
      expect(patchFromShellScript(script(prefix))).toBeNull();
    }
    expect(patchFromShellScript(script('cd bar && ', ' && echo done'))).toBeNull();
    expect(patchFromShellScript(script('', '\necho done'))).toBeNull();
    expect(patchFromShellScript(`apply_patch foo <<'PATCH'\n${PATCH}\nPATCH`)).toBeNull();
    expect(patchFromShellScript(`apply_patch <<'PATCH'\n${PATCH}\n`)).toBeNull();
  });

  it('writes a script that reads back to the same patch and folder, with a delimiter no line of the patch equals', () => {
    const tricky = '*** Begin Patch\n*** Add File: p\n+x\nPATCH\n*** End Patch\n';
    const written = shellScriptForPatch(tricky, 'cd foo && ');
    expect(written).toContain("<<'PATCH_1'");
    const read = patchFromShellScript(written);
    expect(read).toEqual({ patch: tricky.trimEnd(), workdir: 'foo', prefix: 'cd foo && ' });
  });

  it('round-trips a patch through the script', () => {
    const patch = '*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n';
    const read = patchFromShellScript(shellScriptForPatch(patch, ''));
    expect(parsePatch(read?.patch ?? '')).toEqual(parsePatch(patch));
    expect(read?.workdir).toBeNull();
  });
});
