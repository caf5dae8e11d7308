/** The big texts of figure (d), besides largeFilePair (test/support/fixtures.ts). */

/**
 * Minified-looking JavaScript: `lineCount` lines of about `bytesPerLine` bytes each. The proposal
 * changes three statements on every other line, so each changed line is its own hunk.
 */
export function minifiedPair(lineCount: number, bytesPerLine: number): { base: string; proposed: string } {
  const base: string[] = [];
  const proposed: string[] = [];
  for (let line = 0; line < lineCount; line++) {
    const statements: string[] = [];
    for (let i = 0, bytes = 0; bytes < bytesPerLine; i++) {
      const statement = `function f${line}_${i}(a,b){return a*${i % 97}+b-${(i * 31) % 1000}}`;
      statements.push(statement);
      bytes += statement.length + 1;
    }
    base.push(statements.join(';'));
    if (line % 2 === 0) {
      for (const quarter of [1, 2, 3]) {
        const at = Math.floor((statements.length * quarter) / 4);
        statements[at] = statements[at]!.replace('return ', 'return -');
      }
    }
    proposed.push(statements.join(';'));
  }
  return { base: base.join('\n') + '\n', proposed: proposed.join('\n') + '\n' };
}
