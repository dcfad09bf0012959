/**
 * The Prometheus text exposition format, version 0.0.4. Label values are escaped (backslash, double
 * quote, line feed: the three the format defines), so no API string can end a value or start a line.
 */

export interface Sample {
  labels?: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  /** snake_case, zonewarden_ prefix, base unit suffix (docs/monitoring.md). */
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  samples: Sample[];
}

export const gauge = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, help, type: 'gauge', samples });

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value as the format quotes it. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
}

/** HELP text escapes backslash and line feed (a double quote is literal there). */
const escapeHelp = (text: string) => text.replace(/[\\\n]/g, (c) => (c === '\\' ? '\\\\' : '\\n'));

/** Go's float syntax, as the parsers expect it: integers plainly, NaN and the infinities spelt out. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function labelText(labels: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (!entries.length) return '';
  const pairs = entries.map(([name, value]) => {
    // Names are ours, never data: a bad one is a bug to catch in the tests, not output to emit.
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`invalid label name ${JSON.stringify(name)}`);
    return `${name}="${escapeLabelValue(value)}"`;
  });
  return `{${pairs.join(',')}}`;
}

/** The families as one exposition, ending in a line feed; a family without samples is left out. */
export function renderExposition(families: readonly MetricFamily[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const f of families) {
    if (!NAME.test(f.name)) throw new Error(`invalid metric name ${JSON.stringify(f.name)}`);
    if (seen.has(f.name)) throw new Error(`metric ${f.name} is listed twice`);
    seen.add(f.name);
    if (!f.samples.length) continue;
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(`${f.name}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
