import { describe, expect, it } from 'vitest';
import { CLI_GUIDES, codeSpans } from '../../../src-renderer/settings/cli-guides';
import { pathPieces } from '../../../src-renderer/views/PathText';

describe('codeSpans: a guide text with `code` in it', () => {
  it('cuts out what is in backticks as code', () => {
    expect(codeSpans('or CLIO_IDE_PORT, which `difftray status` prints).')).toEqual([
      { text: 'or CLIO_IDE_PORT, which ', code: false },
      { text: 'difftray status', code: true },
      { text: ' prints).', code: false },
    ]);
    expect(codeSpans('`a` and `b`')).toEqual([
      { text: 'a', code: true },
      { text: ' and ', code: false },
      { text: 'b', code: true },
    ]);
  });

  it('keeps a text without a pair of backticks whole', () => {
    expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
    expect(codeSpans('a lone ` stays')).toEqual([{ text: 'a lone ` stays', code: false }]);
    expect(codeSpans('')).toEqual([]);
  });

  it('no guide shows a backtick once its code is cut out', () => {
    for (const guide of CLI_GUIDES) {
      for (const step of guide.steps) {
        const plain = codeSpans(step.text).filter((span) => !span.code);
        expect(plain.map((span) => span.text).join('')).not.toContain('`');
      }
    }
  });
});

describe("the empty state's guides", () => {
  it("Qwen Code's says it finds DiffTray itself, with nothing to export", () => {
    const qwen = CLI_GUIDES.find((guide) => guide.id === 'qwen-code')!;
    const words = qwen.steps.map((step) => step.text).join(' ');
    expect(words).toContain('Finds DiffTray by itself');
    expect(words).not.toMatch(/export|port/i);
  });
});

describe('pathPieces: where a path may wrap', () => {
  it('after each separator and at spaces, and nowhere else (not after a hyphen)', () => {
    expect(pathPieces('/tmp/codex-home/hooks.json')).toEqual(['/', 'tmp/', 'codex-home/', 'hooks.json']);
    expect(pathPieces('C:\\Users\\me')).toEqual(['C:\\', 'Users\\', 'me']);
    expect(pathPieces('"/bin/node" hook  codex-x')).toEqual([
      '"/',
      'bin/',
      'node"',
      ' ',
      'hook',
      '  ',
      'codex-x',
    ]);
  });
});
