/** Hunk model speed on the big-file case (docs/REVIEWING.md): 20,000 lines, 500 changed places. */
import { computeHunks } from '../shared/hunks';
import { composeText, uniformLineDecisions } from '../shared/line-decisions';
import { largeFilePair } from '../test/support/fixtures';
import { report } from './support/stats';

const { base, proposed } = largeFilePair(20_000, 500);
console.log(`file: ${(base.length / 1024 / 1024).toFixed(2)} MB, 20000 lines, 500 changes`);

const computeSamples: number[] = [];
let hunks = computeHunks(base, proposed);
for (let i = 0; i < 15; i++) {
  const start = performance.now();
  hunks = computeHunks(base, proposed);
  computeSamples.push(performance.now() - start);
}
report('computeHunks', computeSamples, `${hunks.length} hunks`);

const decisions = hunks.map((hunk, i) => uniformLineDecisions(hunk, i % 2 === 0 ? 'accepted' : 'rejected'));
const composeSamples: number[] = [];
for (let i = 0; i < 15; i++) {
  const start = performance.now();
  composeText(base, proposed, hunks, decisions);
  composeSamples.push(performance.now() - start);
}
report('composeText (every other hunk)', composeSamples);
