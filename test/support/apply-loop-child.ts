/**
 * Child process for the crash test: writes and deletes files through core's writer in a loop, as fast
 * as it can, until it is killed. argv: <workspace> <journal dir>. Prints "ready" after its first round.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FileWriter } from '../../src-main/core/disk/file-writer';
import type { DiskSnapshot } from '../../src-main/core/disk/disk-snapshot';
import { WriteJournal } from '../../src-main/core/undo/write-journal';
import { CRASH_TEXTS } from './crash-texts';

const [workspace, journalDir] = process.argv.slice(2) as [string, string];
const files = new FileWriter([workspace], new WriteJournal(journalDir));
const target = path.join(workspace, 'target.txt');
const doomed = path.join(workspace, 'doomed.txt');
const text = (value: string): DiskSnapshot => ({ exists: true, kind: 'text', text: value });

function onDisk(file: string): DiskSnapshot {
  try {
    return text(readFileSync(file, 'utf8'));
  } catch {
    return { exists: false };
  }
}

async function main(): Promise<void> {
  for (let round = 0; ; round++) {
    const next = round % 2 === 0 ? CRASH_TEXTS.b : CRASH_TEXTS.a;
    await files.apply({ path: target, expected: onDisk(target), target: text(next) });
    const doomedNow = onDisk(doomed);
    await files.apply({
      path: doomed,
      expected: doomedNow,
      target: doomedNow.exists ? { exists: false } : text(CRASH_TEXTS.doomed),
    });
    if (round === 0) process.stdout.write('ready\n');
  }
}

void main();
