/** The fuzz report as text: one line per endpoint, then each finding with the app's output. */
import type { Finding } from './checks';
import { kb, type EndpointReport } from './fuzz-run';

export function reportFailed(report: EndpointReport): boolean {
  return (
    report.crashes.length +
      report.hangs.length +
      report.touched.length +
      report.leaks.length +
      report.rssOver.length >
    0
  );
}

export function formatReport(report: EndpointReport, { verbose }: { verbose: boolean }): string {
  const { rss } = report;
  const line =
    `${report.endpoint.padEnd(9)} frames sent ${String(report.framesSent).padStart(6)}  ` +
    `crashes ${report.crashes.length}  hangs ${report.hangs.length}  files touched ${report.touched.length}  ` +
    `leaks ${report.leaks.length}  RSS ${kb(rss.beforeKb)} -> ${kb(rss.afterKb)} (max ${kb(rss.maxKb)}, bound ${kb(rss.limitKb)})  ` +
    `after GC ${kb(rss.gcStartKb)} -> ${kb(rss.gcEndKb)} (growth bound ${kb(rss.gcGrowthLimitKb)}; ` +
    `heap ${kb(rss.heapStartKb)} -> ${kb(rss.heapEndKb)}, growth bound ${kb(rss.heapGrowthLimitKb)})  ` +
    `reconnects ${report.reconnects}  limited ${report.limited}  seed ${report.seed}`;
  if (!verbose) return line;
  const sections: string[] = [line];
  const add = (title: string, findings: Finding[]) => {
    for (const finding of findings) {
      sections.push(`  ${title} (frames ${finding.frames.join('-')}): ${finding.detail}`);
      if (finding.log) sections.push(indent(finding.log.trim().split('\n').slice(-25).join('\n'), '    | '));
    }
  };
  sections.push(`  limit probes sent: ${report.limitProbes.length} (${report.limitProbes.join('; ')})`);
  add('CRASH', report.crashes);
  add('HANG', report.hangs);
  add('FILES TOUCHED', report.touched);
  add('LEAK', report.leaks);
  add('RSS', report.rssOver);
  return sections.join('\n');
}

/** One line per finding: what a failing test shows first. */
export function findingLines(report: EndpointReport): string[] {
  const lines = (kind: string, findings: Finding[]) =>
    findings.map(
      (f) => `${report.endpoint} ${kind} after frames ${f.frames.join('-')}: ${f.detail.slice(0, 400)}`,
    );
  return [
    ...lines('crash', report.crashes),
    ...lines('hang', report.hangs),
    ...lines('files touched', report.touched),
    ...lines('leak', report.leaks),
    ...lines('rss', report.rssOver),
  ];
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}
