/** Hunk model speed on the big-file case of DESIGN §5: 20,000 lines, 500 changed places. */
import { composeText, computeHunks } from '../shared/hunks';
import { largeFilePair } from '../test/support/fixtures';
import { report } from './stats';

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

const accepted = hunks.map((_, i) => i % 2 === 0);
const composeSamples: number[] = [];
for (let i = 0; i < 15; i++) {
  const start = performance.now();
  composeText(base, proposed, hunks, accepted);
  composeSamples.push(performance.now() - start);
}
report('composeText (every other hunk)', composeSamples);
