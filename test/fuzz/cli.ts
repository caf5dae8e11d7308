/**
 * `npm run fuzz [-- --frames N --seed S --endpoint NAME --max-rss-mb M --max-gc-growth-mb G]`: the long
 * fuzz run, every endpoint against its own headless app. Prints per endpoint: frames sent, crashes, hangs,
 * files touched, leaks, RSS before/after, and RSS after a forced GC at start and end; exits 1 on any
 * crash, hang, touched file, leak, RSS over the bound, or RSS after GC grown by more than G MB (64).
 * Environment: DIFFTRAY_FUZZ_FRAMES, DIFFTRAY_FUZZ_SEED, DIFFTRAY_FUZZ_MAX_RSS_MB.
 */
import { parseArgs } from 'node:util';
import { formatReport, reportFailed } from './lib/report';
import { DEFAULT_MAX_RSS_MB, runFuzz, type EndpointReport } from './lib/fuzz-run';
import { ENDPOINT_NAMES, type EndpointName } from './lib/protocols';
import { envNumber, seedFromEnv } from './lib/settings';

const DEFAULT_FRAMES = 20_000;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      frames: { type: 'string' },
      seed: { type: 'string' },
      endpoint: { type: 'string', multiple: true },
      'max-rss-mb': { type: 'string' },
      'max-gc-growth-mb': { type: 'string' },
      'batch-size': { type: 'string' },
      'max-crashes': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run fuzz -- [--frames N] [--seed S] [--endpoint claude|gemini|copilot|clio|native|headless]... [--max-rss-mb M] [--max-gc-growth-mb G]',
    );
    return 0;
  }
  const frames = Number(values.frames ?? envNumber('DIFFTRAY_FUZZ_FRAMES') ?? DEFAULT_FRAMES);
  const seed = values.seed !== undefined ? Number(values.seed) : seedFromEnv();
  const maxRssMb = Number(
    values['max-rss-mb'] ?? envNumber('DIFFTRAY_FUZZ_MAX_RSS_MB') ?? DEFAULT_MAX_RSS_MB,
  );
  const batchSize = values['batch-size'] !== undefined ? Number(values['batch-size']) : undefined;
  const endpoints = (values.endpoint ?? ENDPOINT_NAMES) as EndpointName[];
  for (const name of endpoints) {
    if (!ENDPOINT_NAMES.includes(name))
      throw new Error(`unknown endpoint ${name} (one of ${ENDPOINT_NAMES.join(', ')})`);
  }
  console.log(`DiffTray fuzz: seed ${seed}, ${frames} frames per endpoint, RSS bound ${maxRssMb} MB`);
  console.log(`(reproduce with: npm run fuzz -- --seed ${seed} --frames ${frames})\n`);
  const reports: EndpointReport[] = [];
  for (const endpoint of endpoints) {
    const report = await runFuzz({
      endpoint,
      frames,
      seed,
      maxRssMb,
      ...(values['max-gc-growth-mb'] !== undefined && { maxGcGrowthMb: Number(values['max-gc-growth-mb']) }),
      maxCrashes: Number(values['max-crashes'] ?? 10),
      ...(batchSize !== undefined && { batchSize }),
      log: (line) => console.log(`  ${line}`),
    });
    reports.push(report);
    console.log(`${formatReport(report, { verbose: true })}\n`);
  }
  console.log('Summary');
  for (const report of reports) console.log(formatReport(report, { verbose: false }));
  return reports.some(reportFailed) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(2);
  },
);
