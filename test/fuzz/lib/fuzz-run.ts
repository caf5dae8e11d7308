/**
 * One endpoint's fuzz run against the real headless app: seeded frames in batches, and after each batch
 * (and at the end) the checks: the app is alive, a valid request on a fresh connection is answered in
 * time, no file in the workspace or outside it changed, nothing from outside reached an answer, RSS stays
 * under the bound, and at the end RSS after a forced GC is within `maxGcGrowthMb` of the same at start
 * (what the app keeps, not garbage not yet collected). A crash is bisected to the frame that caused it, then the app is restarted so the run
 * goes on; the report lists every finding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppProcess, type ExitInfo } from './app-process';
import { checkAfterBatch, type Finding } from './checks';
import { makeDriver } from './drivers';
import { AppApiClient } from './drivers/app-api';
import type { EndpointDriver } from './drivers/driver';
import {
  changedEntries,
  createFixtureTree,
  hashTrees,
  type FixtureTree,
  type TreeHashes,
} from './fixture-tree';
import type { Frame, FuzzContext } from './frames';
import { FrameGenerator } from './generator';
import { Prng } from './prng';
import type { EndpointName } from './protocols';

export interface FuzzOptions {
  endpoint: EndpointName;
  frames: number;
  seed: number;
  /** Frames between checks (default 200). */
  batchSize?: number;
  /** RSS bound in MB (default 768). */
  maxRssMb?: number;
  /** How much RSS after a forced GC may grow from start to end of the run, in MB (default 64). */
  maxGcGrowthMb?: number;
  /** How much the heap and external buffers after a forced GC may grow, in MB (default 16): what the app keeps. */
  maxHeapGrowthMb?: number;
  /** How long a valid request may wait for its answer before it counts as a hang (default 10 s). */
  probeTimeoutMs?: number;
  /** The run stops after this many crashes (default 3); each is bisected, then the app restarted. */
  maxCrashes?: number;
  log?: (line: string) => void;
}

export interface EndpointReport {
  endpoint: EndpointName;
  seed: number;
  framesSent: number;
  crashes: Finding[];
  hangs: Finding[];
  touched: Finding[];
  leaks: Finding[];
  rssOver: Finding[];
  rss: {
    beforeKb: number | undefined;
    afterKb: number | undefined;
    maxKb: number;
    limitKb: number;
    /** RSS right after forced full GCs, at start (of the app the run ended with) and at the end. */
    gcStartKb: number | undefined;
    gcEndKb: number | undefined;
    /** Heap used and external buffers after the same GCs: what the app keeps, allocator aside. */
    heapStartKb: number | undefined;
    heapEndKb: number | undefined;
    gcGrowthLimitKb: number;
    heapGrowthLimitKb: number;
  };
  reconnects: number;
  limitProbes: string[];
  /** Batches after which the valid request was refused at once by a stated limit the fuzz used up. */
  limited: number;
}

export const DEFAULT_MAX_RSS_MB = 768;
export const DEFAULT_MAX_GC_GROWTH_MB = 64;
export const DEFAULT_MAX_HEAP_GROWTH_MB = 16;
/** How long the app may sit idle for V8 to give memory back before RSS after GC is judged. */
const GC_SETTLE_MAX_MS = 60_000;
const GC_SETTLE_STEP_MS = 10_000;

export async function runFuzz(options: FuzzOptions): Promise<EndpointReport> {
  const run = new FuzzRun(options);
  try {
    return await run.run();
  } finally {
    await run.dispose();
  }
}

class FuzzRun {
  private readonly temp = mkdtempSync(path.join(os.tmpdir(), 'difftray-fuzz-'));
  private readonly tree: FixtureTree = createFixtureTree(this.temp);
  private readonly prng: Prng;
  private readonly log: (line: string) => void;
  private app: AppProcess | undefined;
  private driver: EndpointDriver | undefined;
  private instance = 0;
  private baseline: TreeHashes = new Map();
  private reviewIds: string[] = [];
  private clientIds: string[] = [];
  /** The frame being sent, to name it when a leak shows up. */
  private current: Frame | undefined;
  private readonly report: EndpointReport;
  private reconnectsBefore = 0;
  private scanned = new Set<string>();
  private batchRange: [number, number] = [0, 0];

  constructor(private readonly options: FuzzOptions) {
    this.prng = new Prng(options.seed ^ 0x5bd1e995);
    this.log = options.log ?? (() => {});
    this.report = {
      endpoint: options.endpoint,
      seed: options.seed,
      framesSent: 0,
      crashes: [],
      hangs: [],
      limited: 0,
      touched: [],
      leaks: [],
      rssOver: [],
      rss: {
        beforeKb: undefined,
        afterKb: undefined,
        maxKb: 0,
        limitKb: (options.maxRssMb ?? DEFAULT_MAX_RSS_MB) * 1024,
        gcStartKb: undefined,
        gcEndKb: undefined,
        heapStartKb: undefined,
        heapEndKb: undefined,
        gcGrowthLimitKb: (options.maxGcGrowthMb ?? DEFAULT_MAX_GC_GROWTH_MB) * 1024,
        heapGrowthLimitKb: (options.maxHeapGrowthMb ?? DEFAULT_MAX_HEAP_GROWTH_MB) * 1024,
      },
      reconnects: 0,
      limitProbes: [],
    };
  }

  private get ctx(): FuzzContext {
    return {
      workspace: this.tree.workspace,
      outside: this.tree.outside,
      files: this.tree.files,
      symlinks: this.tree.symlinks,
      liveReviewIds: () => this.reviewIds,
      liveClientIds: () => this.clientIds,
    };
  }

  async run(): Promise<EndpointReport> {
    const { frames, endpoint, seed } = this.options;
    const batchSize = this.options.batchSize ?? 200;
    const maxCrashes = this.options.maxCrashes ?? 3;
    const generator = new FrameGenerator({ endpoint, seed, total: frames, ctx: this.ctx });
    this.report.limitProbes = generator.probeLabels();
    await this.startApp();
    this.baseline = hashTrees(this.tree);
    this.report.rss.beforeKb = this.app!.rssKb();
    this.log(
      `${endpoint}: seed ${seed}, ${frames} frames, app pid ${this.app!.pid}, RSS ${kb(this.report.rss.beforeKb)}`,
    );
    for (let start = 0; start < frames; start += batchSize) {
      const batch: Frame[] = [];
      for (let i = start; i < Math.min(frames, start + batchSize); i++) batch.push(generator.next(i));
      await this.runBatch(batch, start);
      if (this.report.crashes.length >= maxCrashes) {
        this.log(`${endpoint}: stopping after ${maxCrashes} crashes`);
        break;
      }
    }
    this.report.rss.afterKb = this.app?.rssKb();
    await this.checkGcGrowth(frames);
    this.report.reconnects = this.reconnectsBefore + (this.driver?.reconnects ?? 0);
    return this.report;
  }

  /**
   * RSS after a forced GC at the end, against the same when the app started: what it kept. Right after
   * the last frame RSS still holds V8's grown young generation and freed malloc pages, which V8's memory
   * reducer gives back once the app is idle (seen within 20-40 s): measured every 10 s for up to a
   * minute, until it is within the bound. A leak does not go away by waiting.
   */
  private async checkGcGrowth(frames: number): Promise<void> {
    const { rss } = this.report;
    for (let waited = 0; ; waited += GC_SETTLE_STEP_MS) {
      const end = await this.app?.afterGc();
      rss.gcEndKb = end?.rssKb;
      rss.heapEndKb = end?.heapKb;
      if (rss.gcStartKb === undefined || rss.gcEndKb === undefined) return;
      const heapKept =
        rss.heapStartKb === undefined ||
        rss.heapEndKb === undefined ||
        rss.heapEndKb - rss.heapStartKb <= rss.heapGrowthLimitKb;
      if (rss.gcEndKb - rss.gcStartKb <= rss.gcGrowthLimitKb && heapKept) return;
      if (waited >= GC_SETTLE_MAX_MS) break;
      await new Promise((resolve) => setTimeout(resolve, GC_SETTLE_STEP_MS));
    }
    const detail =
      `after a forced GC, RSS grew from ${kb(rss.gcStartKb)} to ${kb(rss.gcEndKb)} ` +
      `(${kb(rss.gcGrowthLimitKb)} allowed), heap and buffers from ${kb(rss.heapStartKb)} to ` +
      `${kb(rss.heapEndKb)} (${kb(rss.heapGrowthLimitKb)} allowed)`;
    this.report.rssOver.push({ frames: [0, frames - 1], detail });
    this.log(`${this.options.endpoint}: ${detail}`);
  }

  async dispose(): Promise<void> {
    await this.driver?.endBatch().catch(() => undefined);
    await this.app?.stop();
    rmSync(this.temp, { recursive: true, force: true });
  }

  private async startApp(): Promise<void> {
    this.app = await AppProcess.start(this.tree, this.instance++);
    // Measured on each app: after a crash, the run goes on with a fresh one.
    const start = await this.app.afterGc();
    this.report.rss.gcStartKb = start?.rssKb;
    this.report.rss.heapStartKb = start?.heapKb;
    this.scanned = new Set();
    this.reconnectsBefore += this.driver?.reconnects ?? 0;
    this.driver = makeDriver(this.options.endpoint, {
      endpoints: this.app.endpoints,
      prng: this.prng.fork(),
      onText: (text) => this.scanForLeak(text),
    });
  }

  private async runBatch(batch: Frame[], first: number): Promise<void> {
    const app = this.app!;
    const range: [number, number] = [first, first + batch.length - 1];
    this.batchRange = range;
    await this.startBatch();
    for (const frame of batch) {
      this.current = frame;
      this.report.framesSent++;
      try {
        await this.driver!.send(frame);
      } catch {
        // A refused connection or a reset: the checks below say whether the app is still there.
        if (!app.alive()) break;
      }
    }
    const verdict = await checkAfterBatch({
      app,
      driver: this.driver!,
      tree: this.tree,
      probeTimeoutMs: this.options.probeTimeoutMs ?? 10_000,
      scanForLeak: (text, where) => this.scanForLeak(text, where),
      scanned: this.scanned,
    });
    this.track(verdict.rssKb);
    if (verdict.exit) {
      const culprit = await this.bisect(batch);
      this.report.crashes.push(crashFinding(range, verdict.exit, culprit));
      this.log(
        `${this.options.endpoint}: CRASH in frames ${range.join('-')}: ${summary(verdict.exit)}${culprit ? ` (frame: ${culprit})` : ''}`,
      );
      await this.restart();
    } else if (verdict.hang) {
      this.report.hangs.push({ frames: range, detail: verdict.hang, log: app.logTail().slice(-4000) });
      this.log(`${this.options.endpoint}: HANG after frames ${range.join('-')}: ${verdict.hang}`);
      await this.restart();
    } else {
      if (verdict.limited) this.report.limited++;
      await this.driver!.endBatch().catch(() => undefined);
    }
    const now = hashTrees(this.tree);
    const changed = changedEntries(this.baseline, now);
    if (changed.length > 0) {
      this.report.touched.push({ frames: range, detail: changed.join(', ') });
      this.log(`${this.options.endpoint}: FILES TOUCHED in frames ${range.join('-')}: ${changed.join(', ')}`);
      this.baseline = now;
    }
    if (
      verdict.rssKb !== undefined &&
      verdict.rssKb > this.report.rss.limitKb &&
      this.report.rssOver.length === 0
    ) {
      this.report.rssOver.push({
        frames: range,
        detail: `RSS ${kb(verdict.rssKb)} over the ${kb(this.report.rss.limitKb)} bound`,
      });
      this.log(
        `${this.options.endpoint}: RSS ${kb(verdict.rssKb)} over the bound after frames ${range.join('-')}`,
      );
    }
  }

  private async startBatch(): Promise<void> {
    await this.driver!.startBatch?.().catch(() => undefined);
    if (this.options.endpoint !== 'headless') return;
    // The headless fuzz decides, edits and submits the reviews its batch started with.
    const api = await AppApiClient.open(this.app!.endpoints).catch(() => undefined);
    if (!api) return;
    try {
      for (let tries = 0; tries < 20; tries++) {
        const snapshot = await api.snapshot();
        this.reviewIds = snapshot.reviews.filter((r) => r.state === 'pending').map((r) => r.id);
        this.clientIds = snapshot.clients.map((c) => c.id);
        if (this.reviewIds.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } catch {
      // The app went away: the checks after the batch say so.
    } finally {
      api.close();
    }
  }

  /** Replays a crashing batch one frame at a time on a fresh app; names the first frame after which it dies. */
  private async bisect(batch: Frame[]): Promise<string | undefined> {
    await this.restart();
    await this.startBatch();
    for (const frame of batch) {
      try {
        await this.driver!.send(frame);
        await this.driver!.probe(5000);
      } catch {
        // Judged by whether the process lives.
      }
      if (!this.app!.alive() || (await this.app!.exitWithin(20))) return describeFrame(frame);
    }
    await this.driver!.endBatch().catch(() => undefined);
    return undefined;
  }

  private async restart(): Promise<void> {
    await this.driver?.endBatch().catch(() => undefined);
    await this.app?.stop();
    await this.startApp();
  }

  private track(rssKb: number | undefined): void {
    if (rssKb !== undefined) this.report.rss.maxKb = Math.max(this.report.rss.maxKb, rssKb);
  }

  private scanForLeak(text: string, where?: string): void {
    if (!text.includes(this.tree.secretMarker) || this.report.leaks.length >= 5) return;
    const last = this.report.framesSent - 1;
    // In an answer: the frame just sent (or one shortly before) asked for it. In a review: the batch did.
    const detail = where
      ? `outside file content in ${where}`
      : `outside file content in an answer; last frame sent: ${this.current ? describeFrame(this.current) : 'none'}`;
    const frames: [number, number] = where ? this.batchRange : [last, last];
    this.report.leaks.push({ frames, detail });
    this.log(`${this.options.endpoint}: LEAK after frames ${frames.join('-')}: ${detail}`);
  }
}

function crashFinding(frames: [number, number], exit: ExitInfo, culprit: string | undefined): Finding {
  return {
    frames,
    detail: `${summary(exit)}${culprit ? `; reproduced by one frame: ${culprit}` : '; not reproduced by a single frame of the batch'}`,
    log: `${exit.stderrTail.slice(-4000)}\n--- stdout (tail) ---\n${exit.stdoutTail.slice(-1500)}`,
  };
}

/** "exit 1: TypeError: Cannot read properties of null (reading 'method')" */
export function summary(exit: ExitInfo): string {
  const how = exit.signal ? `signal ${exit.signal}` : `exit ${exit.code}`;
  const error =
    /^(?:Uncaught )?\w*(?:Error|Exception)\b.*$/m.exec(exit.stderrTail)?.[0] ??
    exit.stderrTail.trim().split('\n').pop() ??
    '';
  return `${how}: ${error.slice(0, 300)}`;
}

export function describeFrame(frame: Frame): string {
  const bytes = typeof frame.data === 'string' ? Buffer.byteLength(frame.data) : frame.data.length;
  const preview = (typeof frame.data === 'string' ? frame.data : frame.data.toString('latin1')).slice(0, 120);
  return `${frame.label}${frame.binary ? ' [binary]' : ''}${frame.preauth ? ' [pre-auth]' : ''} (${bytes} bytes): ${JSON.stringify(preview)}`;
}

export function kb(value: number | undefined): string {
  if (value === Number.POSITIVE_INFINITY) return 'none';
  return value === undefined ? 'n/a' : `${Math.round(value / 1024)} MB`;
}
