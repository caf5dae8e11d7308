/**
 * eslint/error-messages.js: a caught value is read with messageOf/stackOf, never cast to Error, through
 * ESLint itself with the project's own configuration (files named where they would live; none is written).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

async function castErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'errors/no-error-cast').map((m) => m.message);
}

describe('reading caught values', () => {
  it.each([
    ['src-main/core/x.ts', 'try { f(); } catch (error) { console.log((error as Error).message); }'],
    ['src-renderer/x.tsx', 'try { f(); } catch (e) { console.log((e as Error).stack); }'],
    ['test/unit/x.test.ts', 'const m = (thrown as Error).message;'],
  ])('%s: a cast to Error is refused', async (file, code) => {
    expect(
      await castErrors(
        file,
        `declare const thrown: unknown; declare function f(): void;\n${code}\nexport {};\n`,
      ),
    ).toEqual([expect.stringContaining('messageOf')]);
  });

  it('messageOf is allowed', async () => {
    const code =
      "import { messageOf } from '../../shared/error-message';\ntry { JSON.parse('x'); } catch (error) { console.log(messageOf(error)); }\n";
    expect(await castErrors('src-main/core/x.ts', code)).toEqual([]);
  });
});
