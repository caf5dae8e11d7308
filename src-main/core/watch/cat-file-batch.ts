/**
 * Reading the answers of `git cat-file --batch-check` and `--batch`, one per line asked, in the order
 * asked: `<oid> <type> <size>` (followed, for --batch, by the object's bytes and a newline) or
 * `<name> missing`. Pure: no process here (git-index.ts runs git).
 */

export type BatchAnswer = { found: true; oid: string; type: string; size: number } | { found: false };

/** The answer of a header line, or undefined if the line is neither form. */
function parseHeader(line: string): BatchAnswer | undefined {
  // A name may hold spaces; "missing" (or "ambiguous") is its last word.
  if (/ (missing|ambiguous)$/.test(line)) return { found: false };
  const match = /^([0-9a-f]{40,64}) ([a-z]+) (\d+)$/.exec(line);
  if (!match) return undefined;
  return { found: true, oid: match[1]!, type: match[2]!, size: Number(match[3]) };
}

/** The answers of --batch-check, or undefined if the output is not as many well-formed lines as asked. */
export function parseBatchCheck(stdout: Buffer, asked: number): BatchAnswer[] | undefined {
  const lines = stdout.toString('utf8').split('\n');
  if (lines.pop() !== '' || lines.length !== asked) return undefined;
  const answers: BatchAnswer[] = [];
  for (const line of lines) {
    const answer = parseHeader(line);
    if (!answer) return undefined;
    answers.push(answer);
  }
  return answers;
}

/**
 * The objects of --batch by oid (only those found, with their bytes), or undefined if the output is not
 * well formed. The bytes are views into `stdout`, not copies.
 */
export function parseBatch(stdout: Buffer): Map<string, Buffer> | undefined {
  const objects = new Map<string, Buffer>();
  let at = 0;
  while (at < stdout.length) {
    const end = stdout.indexOf(0x0a, at);
    if (end === -1) return undefined;
    const header = parseHeader(stdout.toString('utf8', at, end));
    if (!header) return undefined;
    at = end + 1;
    if (!header.found) continue;
    const stop = at + header.size;
    if (stop >= stdout.length || stdout[stop] !== 0x0a) return undefined;
    objects.set(header.oid, stdout.subarray(at, stop));
    at = stop + 1;
  }
  return objects;
}
