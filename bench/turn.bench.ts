/**
 * (t) A whole turn's review (issue 26): an agent's turn touched 500 files of 100 lines and wrote 10
 * separated lines in each (5,000 hunks) unasked. DiffTray: from the hooks' `turn_end` until the review is
 * ready on screen — the answer names it, core's change stream has announced it, and the window's two
 * calls for the review it shows (focusReview: its hunks; getReviewContent: its texts) have answered. The
 * floor: today's way to open the same files, one `propose_change_set` with each file's before and after
 * (the disk holding the before), timed the same way on a fresh runtime. Rounds alternate the two.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TURN_TOUCH_MAX_PATHS } from '../shared/native-turns';
import { NATIVE_HEADER, RawNative } from '../test/support/raw-native';
import { startTestRuntime, type TestRuntime } from '../test/support/test-runtime';
import { figure } from './support/results';
import { interleave, median, since } from './support/stats';

const FILES = 500;
const LINES = 100;
const CHANGED_PER_FILE = 10;
const ROUNDS = 7;
const ANSWER_TIMEOUT_MS = 120_000;

const relative = (index: number) => `src/module-${String(index).padStart(3, '0')}.ts`;

/** A file of LINES lines; the written side changes every tenth line, so each change is its own hunk. */
function fileText(index: number, written: boolean): string {
  const lines: string[] = [];
  for (let line = 0; line < LINES; line++) {
    const changed = written && line % (LINES / CHANGED_PER_FILE) === 4;
    lines.push(
      changed
        ? `export const value${line} = computeAgain(${index}, ${line}); // rewritten by the turn`
        : `export const value${line} = compute(${index}, ${line}); // as it was before the turn`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function writeAll(workspace: string, written: boolean): void {
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  for (let index = 0; index < FILES; index++) {
    writeFileSync(path.join(workspace, relative(index)), fileText(index, written));
  }
}

async function connect(t: TestRuntime, hello: Record<string, unknown>): Promise<RawNative> {
  const { native } = t.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  await answered(client, 'hello', hello);
  return client;
}

async function answered(client: RawNative, command: string, payload: Record<string, unknown>) {
  const answer = await client.request(command, payload, ANSWER_TIMEOUT_MS);
  if (answer.type !== 'response') throw new Error(`${command}: ${JSON.stringify(answer.payload)}`);
  return answer.payload;
}

/** Resolves once core's change stream has announced review `reviewId` (named later) as added. */
function announced(t: TestRuntime): { when: (reviewId: string) => Promise<void>; close: () => void } {
  const seen = new Set<string>();
  const waiting = new Map<string, () => void>();
  const subscription = t.runtime.core.subscribe((change) => {
    for (const review of change.added ?? []) {
      seen.add(review.id);
      waiting.get(review.id)?.();
    }
  });
  return {
    when: (reviewId) =>
      seen.has(reviewId) ? Promise.resolve() : new Promise((resolve) => waiting.set(reviewId, resolve)),
    close: () => subscription.close(),
  };
}

/** What the window asks for the review it shows, in the same breath (src-renderer/state/live-state.ts). */
async function openOnScreen(t: TestRuntime, reviewId: string): Promise<number> {
  const [detail, contents] = await Promise.all([
    t.runtime.handler('focusReview', { reviewId }),
    t.runtime.handler('getReviewContent', { reviewId }),
  ]);
  const hunks = (detail as { files: unknown[][] } | null)?.files.reduce((sum, file) => sum + file.length, 0);
  if (!Array.isArray(contents) || contents.length !== FILES) throw new Error('the texts are not all there');
  return hunks ?? 0;
}

/** Checks what was opened: every file, every hunk. */
function expectWhole(label: string, hunks: number): void {
  if (hunks !== FILES * CHANGED_PER_FILE) {
    throw new Error(`${label}: ${hunks} hunks on screen, not ${FILES * CHANGED_PER_FILE}`);
  }
}

/** From the send: until ready on screen, and until the command's answer (the part before the window's calls). */
interface Sample {
  ms: number;
  answeredMs: number;
}

/** One turn on a fresh runtime: touched, written, then timed from turn_end until ready on screen. */
async function turnRound(): Promise<Sample> {
  const t = await startTestRuntime();
  try {
    writeAll(t.workspace, false);
    const client = await connect(t, {
      client_name: 'Claude Code',
      integration: 'claude-code-hooks',
      agent_session_id: 'bench-turn',
      workspace: t.workspace,
      one_shot: true,
    });
    await answered(client, 'turn_begin', { prompt: 'Rewrite every module' });
    for (let first = 0; first < FILES; first += TURN_TOUCH_MAX_PATHS) {
      const paths = Array.from({ length: Math.min(TURN_TOUCH_MAX_PATHS, FILES - first) }, (_, i) =>
        relative(first + i),
      );
      const touched = await answered(client, 'turn_touch', { paths, permission_mode: 'acceptEdits' });
      if (touched.each_edit !== false) throw new Error('the turn asked each edit: nothing left for its end');
    }
    writeAll(t.workspace, true);
    const stream = announced(t);
    const start = performance.now();
    const ended = await answered(client, 'turn_end', {});
    const answeredMs = since(start);
    const reviewId = ended.review_id;
    if (typeof reviewId !== 'string' || ended.files !== FILES) {
      throw new Error(`turn_end answered ${JSON.stringify(ended)}`);
    }
    await stream.when(reviewId);
    const hunks = await openOnScreen(t, reviewId);
    const ms = since(start);
    stream.close();
    expectWhole('turn review', hunks);
    client.close();
    return { ms, answeredMs };
  } finally {
    await t.close();
  }
}

/** The same files as one change set, the disk holding the before, timed from the send. */
async function changeSetRound(): Promise<Sample> {
  const t = await startTestRuntime();
  try {
    writeAll(t.workspace, false);
    const client = await connect(t, { client_name: 'bench change set' });
    const files = Array.from({ length: FILES }, (_, index) => ({
      path: relative(index),
      before: fileText(index, false),
      after: fileText(index, true),
    }));
    const stream = announced(t);
    const start = performance.now();
    const proposed = await answered(client, 'propose_change_set', { title: 'Rewrite every module', files });
    const answeredMs = since(start);
    const reviewId = proposed.review_id;
    if (typeof reviewId !== 'string') throw new Error(`propose answered ${JSON.stringify(proposed)}`);
    await stream.when(reviewId);
    const hunks = await openOnScreen(t, reviewId);
    const ms = since(start);
    stream.close();
    expectWhole('change set', hunks);
    client.close();
    return { ms, answeredMs };
  } finally {
    await t.close();
  }
}

const [turn, changeSet] = await interleave(ROUNDS, turnRound, changeSetRound);
const result = figure(
  't',
  `turn review of ${FILES} files / ${FILES * CHANGED_PER_FILE} hunks: turn_end → on screen`,
  'ms',
  turn.map((sample) => sample.ms),
  'one change set',
  changeSet.map((sample) => sample.ms),
  '≤ 2 s and ≤ 1.3×',
);
const absolute = median(turn.map((sample) => sample.ms));
console.log(
  `      absolute: median ${(absolute / 1000).toFixed(2)} s — goal ≤ 2 s ${absolute <= 2000 ? 'met' : 'MISSED'}; ` +
    `ratio goal ≤ 1.3× ${result.app.median / result.floor.median <= 1.3 ? 'met' : 'MISSED'}`,
);
const answeredMedian = (samples: Sample[]) => median(samples.map((sample) => sample.answeredMs)).toFixed(0);
console.log(
  `      of which until the answer: turn_end ${answeredMedian(turn)} ms, ` +
    `propose_change_set ${answeredMedian(changeSet)} ms (medians)`,
);
