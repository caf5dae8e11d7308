/**
 * The seeded frame generator every endpoint's fuzz uses: the same seed and frame count give the same
 * frames. A mix of protocol-aware mutations, with each limit probe placed once in the run.
 */
import {
  deepNesting,
  hugeSize,
  junkFrame,
  mutateFields,
  text,
  withDeepField,
  type Frame,
  type FuzzContext,
} from './frames';
import { Prng } from './prng';
import { rawHttpFrame } from './raw-http';
import { PROTOCOLS, withHugeField, type EndpointName, type LimitProbe } from './protocols';

export interface GeneratorOptions {
  endpoint: EndpointName;
  seed: number;
  /** How many frames the run sends (where the limit probes go depends on it). */
  total: number;
  ctx: FuzzContext;
}

export class FrameGenerator {
  private readonly prng: Prng;
  private readonly probes = new Map<number, LimitProbe>();

  constructor(private readonly options: GeneratorOptions) {
    this.prng = new Prng(options.seed);
    const probes = PROTOCOLS[options.endpoint].limitProbes(options.ctx);
    // Spread over the run, never at frame 0, so a probe that kills the app leaves batches before it.
    probes.forEach((probe, i) => {
      this.probes.set(Math.floor(((i + 1) * options.total) / (probes.length + 1)), probe);
    });
  }

  /** Frame number `index` of the run (call in order: each call advances the generator). */
  next(index: number): Frame {
    const probe = this.probes.get(index);
    if (probe) return { ...probe.frame(), label: `limit probe: ${probe.label}` };
    const { ctx, endpoint } = this.options;
    const prng = this.prng;
    const model = PROTOCOLS[endpoint];
    const valid = model.message(ctx, prng);
    if (endpoint === 'gemini' || endpoint === 'copilot') {
      if (prng.chance(0.08)) return rawHttpFrame(prng, JSON.stringify(valid));
      if (prng.chance(0.05))
        return {
          ...text('valid-looking body, odd headers', JSON.stringify(valid)),
          headers: oddHeaders(prng),
        };
    }
    return prng.weighted<() => Frame>([
      [8, () => text('valid-looking message', JSON.stringify(valid))],
      [30, () => text('mutated fields', JSON.stringify(mutateFields(valid, ctx, prng)))],
      [20, () => junkFrame(prng, JSON.stringify(valid))],
      [5, () => text('unknown method', JSON.stringify(model.unknownMethod(prng)))],
      [3, () => deepNesting(prng)],
      [3, () => text('deeply nested field', withDeepField(valid, prng.pick([1000, 10_000, 100_000])))],
      [
        1,
        () => {
          const bytes = hugeSize(prng);
          return text(
            `huge string field (${bytes} bytes)`,
            JSON.stringify(withHugeField(valid, prng, bytes)),
          );
        },
      ],
      [2, () => ({ ...junkFrame(prng, JSON.stringify(valid)), preauth: true })],
    ])();
  }

  /** Labels of the limit probes, in the order they are sent. */
  probeLabels(): string[] {
    return [...this.probes.entries()].sort(([a], [b]) => a - b).map(([, probe]) => probe.label);
  }
}

/** HTTP headers a Streamable HTTP server may not expect (null drops the driver's own). */
function oddHeaders(prng: Prng): Record<string, string | null> {
  return prng.pick<Record<string, string | null>>([
    { 'content-type': 'text/plain' },
    { 'content-type': null },
    { accept: null },
    { accept: 'text/html' },
    { 'mcp-protocol-version': '1999-01-01' },
    { 'mcp-session-id': '../../etc/passwd' },
    { 'mcp-session-id': 'x'.repeat(8000) },
    { 'last-event-id': 'garbage' },
  ]);
}
