/**
 * The README's pictures are the ones in docs/, no more and no fewer, and each is taken by an e2e test
 * (docsScreenshot writes docs/<name>.png), so retaking them keeps the README true.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const shown = [...readFileSync(path.join(root, 'README.md'), 'utf8').matchAll(/\]\(docs\/([\w-]+)\.png\)/g)]
  .map((match) => match[1])
  .sort();
const inDocs = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.png'))
  .map((name) => name.slice(0, -'.png'.length))
  .sort();
const e2eText = readdirSync(path.join(root, 'e2e'))
  .filter((name) => name.endsWith('.e2e.ts'))
  .map((name) => readFileSync(path.join(root, 'e2e', name), 'utf8'))
  .join('\n');

describe("the README's pictures", () => {
  it('are exactly the pictures in docs/', () => {
    expect(shown.length).toBeGreaterThan(0);
    expect([...new Set(shown)]).toEqual(inDocs);
  });

  it('are each named in an e2e test, which takes it', () => {
    expect(shown.filter((name) => !e2eText.includes(`'${name}'`))).toEqual([]);
  });
});
