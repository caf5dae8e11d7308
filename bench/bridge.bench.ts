/**
 * Round trip of a Claude Code openDiff through the real bridge on loopback: the SDK client sends the
 * proposal, the review is accepted through the app API as soon as it appears, the answer comes back.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectClaudeClient } from '../test/support/claude-client';
import { startTestRuntime } from '../test/support/test-runtime';
import { largeFilePair } from '../test/support/fixtures';
import { report } from './stats';

const t = await startTestRuntime();
t.runtime.core.subscribe((change) => {
  for (const review of change.added ?? []) {
    if (review.state === 'pending') void t.runtime.handler('submit', { reviewId: review.id });
  }
});
const claude = await connectClaudeClient(t.runtime.bridge.port, t.runtime.bridge.tokenFor('claude-ide'));

for (const [lines, changes] of [
  [100, 3],
  [20_000, 500],
] as const) {
  const file = path.join(t.workspace, `f${lines}.ts`);
  const { base, proposed } = largeFilePair(lines, changes);
  writeFileSync(file, base);
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await claude.callTool('openDiff', {
      old_file_path: file,
      new_file_path: file,
      new_file_contents: proposed,
      tab_name: `bench-${i}`,
    });
    samples.push(performance.now() - start);
  }
  report(`openDiff round trip, ${lines} lines / ${changes} hunks`, samples);
}

await claude.close();
await t.close();
