import { budgetBoundSeconds, CONCURRENCY, LATENCY_MS, latencyBoundSeconds, type ToolRun } from './compare.js';
import type { ScanBenchResult } from './scan.js';

/**
 * The comparison's tables and the targets of issue 10 for one scale: each target with the figure
 * measured and whether it was met, so a miss is as visible as a pass.
 */

const MIB_300 = 300_000_000 / 2 ** 20;

function cell(run: ToolRun, text: string): string {
  return run.completed ? text : `${text} (did not finish: ${run.failure ?? 'unknown'})`;
}

export function comparisonMarkdown(r: ScanBenchResult): string {
  const min = r.minimum.minimum;
  const lines = [
    `### Reading the organisation: zonewarden and scripts on the official SDK (${r.zones} zones, ${r.records} DNS records)`,
    '',
    `Each against the same emulator at ${LATENCY_MS} ms latency with no rate limit, in its own process, timed from spawn to`,
    `exit. zonewarden: \`scan\`, concurrency ${CONCURRENCY}. SDK plain: the \`cloudflare\` package's auto-pagination, one zone`,
    `after another, its default page sizes. SDK tuned: ${CONCURRENCY} zones at a time (p-limit), the largest page of each list.`,
    `The least requests that could read it all: ${min}; the latency bound for that many, ${CONCURRENCY} at a time: ${latencyBoundSeconds(min).toFixed(1)} s.`,
    '',
    '| tool | requests | × minimum | wall time | × latency bound | 429s | peak RSS |',
    '|---|---|---|---|---|---|---|',
    ...r.latency.map(
      (t) =>
        `| ${t.tool} | ${t.requests} | ${(t.requests / min).toFixed(3)} | ${cell(t, `${t.seconds.toFixed(1)} s`)} | ${(t.seconds / latencyBoundSeconds(min)).toFixed(2)} | ${t.rateLimited} | ${t.peakRssMiB.toFixed(0)} MiB |`,
    ),
    '',
  ];
  if (r.budget) {
    const { budget, runs } = r.budget;
    const bound = Math.max(budgetBoundSeconds(min, budget), latencyBoundSeconds(min));
    lines.push(
      `### Under a rate budget tighter than the work: ${budget.limit} requests per ${budget.windowSeconds} s`,
      '',
      `The emulator enforces it (a sliding window; going over blocks for a whole window, as the API does), a fresh one per tool;`,
      `zonewarden is told the same budget (\`--budget ${budget.limit} --budget-window ${budget.windowSeconds}\`), the scripts are not, as users' would not be.`,
      `Lower bound for the minimum ${min} requests at the budget's rate: ${bound.toFixed(1)} s (latency alone would allow ${latencyBoundSeconds(min).toFixed(1)} s; a client`,
      'that spent each window in one burst could finish up to a window sooner, which zonewarden, sharing the budget with colleagues, does not).',
      '',
      '| tool | requests | wall time | × bound | own bound | 429s | finished |',
      '|---|---|---|---|---|---|---|',
      ...runs.map((t) => {
        const own = Math.max(budgetBoundSeconds(t.requests, budget), latencyBoundSeconds(t.requests));
        return `| ${t.tool} | ${t.requests} | ${t.seconds.toFixed(1)} s | ${(t.seconds / bound).toFixed(2)} | ${own.toFixed(1)} s | ${t.rateLimited} | ${t.completed ? 'yes' : `no: ${t.failure ?? 'unknown'}`} |`;
      }),
      '',
      '"× bound" compares with the least time for the minimum number of requests; "own bound" is the least time for the',
      'requests that tool made, so a tool that asks for more pages has a later bound of its own.',
      '',
    );
  }
  return lines.join('\n');
}

interface Target {
  what: string;
  target: string;
  measured: string;
  met: boolean | null;
}

export function targets(r: ScanBenchResult): Target[] {
  const min = r.minimum.minimum;
  const zw = r.latency.find((t) => t.tool === 'zonewarden')!;
  const list: Target[] = [
    { what: 'requests against the minimum', target: 'at most 1.02 ×', measured: `${(zw.requests / min).toFixed(3)} × (${zw.requests} / ${min})`, met: zw.requests <= 1.02 * min },
    {
      what: 'wall time, latency the limit',
      target: 'at most 1.25 × the latency bound',
      measured: `${(zw.seconds / latencyBoundSeconds(min)).toFixed(2)} × (${zw.seconds.toFixed(1)} s / ${latencyBoundSeconds(min).toFixed(1)} s)`,
      met: zw.seconds <= 1.25 * latencyBoundSeconds(min),
    },
  ];
  const budgeted = r.budget?.runs.find((t) => t.tool === 'zonewarden');
  if (r.budget && budgeted) {
    const bound = Math.max(budgetBoundSeconds(min, r.budget.budget), latencyBoundSeconds(min));
    list.push(
      { what: '429s under a budget at the server\'s limit', target: '0', measured: String(budgeted.rateLimited), met: budgeted.rateLimited === 0 && budgeted.completed },
      { what: 'wall time, the budget the limit', target: 'at most 1.25 × the budget bound', measured: `${(budgeted.seconds / bound).toFixed(2)} × (${budgeted.seconds.toFixed(1)} s / ${bound.toFixed(1)} s)`, met: budgeted.seconds <= 1.25 * bound },
    );
  }
  list.push(
    { what: 'peak RSS of the scan', target: r.scale === 'large' ? 'at most 300 MB' : 'at most 300 MB (set for large)', measured: `${r.peakRssMiB.toFixed(0)} MiB`, met: r.peakRssMiB <= MIB_300 },
    { what: 'peak RSS of the audit', target: 'at most 300 MB', measured: `${r.auditPeakRssMiB.toFixed(0)} MiB`, met: r.auditPeakRssMiB <= MIB_300 },
    { what: 'peak RSS of the diff', target: 'at most 300 MB', measured: `${r.drift.peakRssMiB.toFixed(0)} MiB`, met: r.drift.peakRssMiB <= MIB_300 },
    { what: 'peak RSS of the report', target: 'at most 300 MB', measured: `${r.report.peakRssMiB.toFixed(0)} MiB`, met: r.report.peakRssMiB <= MIB_300 },
    { what: 'database growth on an unchanged rescan', target: 'at most 2%', measured: `${r.rescanGrowthPercent.toFixed(2)}%`, met: r.rescanGrowthPercent <= 2 },
    { what: 'diff time', target: r.scale === 'large' ? 'at most 5 s' : 'at most 5 s (set for large)', measured: `${r.drift.seconds.toFixed(2)} s`, met: r.drift.seconds <= 5 },
    { what: 'HTML report size', target: 'at most 15 MB', measured: `${r.report.htmlMB.toFixed(1)} MB`, met: r.report.htmlMB <= 15 },
  );
  if (r.report.firstRowsSeconds.length) {
    const worst = Math.max(...r.report.firstRowsSeconds);
    list.push({ what: 'HTML report: first rows visible', target: 'within 2 s', measured: `${worst.toFixed(2)} s (worst of ${r.report.firstRowsSeconds.length})`, met: worst <= 2 });
  }
  return list;
}

export function targetsMarkdown(r: ScanBenchResult): string {
  return [
    `### Targets at this scale`,
    '',
    '| target | goal | measured | met |',
    '|---|---|---|---|',
    ...targets(r).map((t) => `| ${t.what} | ${t.target} | ${t.measured} | ${t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'} |`),
    '',
  ].join('\n');
}
