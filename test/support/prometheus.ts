import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, it, type SuiteFactory } from 'vitest';

/**
 * The monitoring tests use Debian's Prometheus tools, never downloaded ones: promtool (package
 * prometheus) and node_exporter (package prometheus-node-exporter). As with the browser tests
 * (test/support/browser.ts), a missing tool fails them in CI (CI=true), which must run them, and
 * skips them elsewhere with a visible warning.
 */
export const PROMTOOL = '/usr/bin/promtool';
export const NODE_EXPORTER = '/usr/bin/prometheus-node-exporter';

export function prometheusDescribe(name: string, file: string, factory: SuiteFactory): void {
  const missing = [PROMTOOL, NODE_EXPORTER].filter((tool) => !existsSync(tool));
  if (missing.length && process.env.CI === 'true') {
    describe(name, () => {
      it('has the Prometheus tools to run', () => {
        throw new Error(`${missing.join(' and ')} missing; CI must run the monitoring tests (apt-get install prometheus prometheus-node-exporter)`);
      });
    });
    return;
  }
  if (missing.length) console.warn(`${file}: monitoring tests SKIPPED because ${missing.join(' and ')} is missing (apt-get install prometheus prometheus-node-exporter)`);
  describe.skipIf(missing.length > 0)(name, factory);
}

/** `promtool check metrics` on the text: its exit code and what it said (lint problems, parse errors). */
export function checkMetrics(text: string): { code: number | null; output: string } {
  const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

export function promtool(...args: string[]): { code: number | null; output: string } {
  const r = spawnSync(PROMTOOL, args, { encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export interface NodeExporter {
  url: string;
  /** The body of GET /metrics. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/**
 * node_exporter on 127.0.0.1 with only the textfile collector, reading `dir`, and without its
 * own Go and process metrics: the test's series and the collector's own (node_textfile_*).
 */
export async function startNodeExporter(dir: string): Promise<NodeExporter> {
  const port = await freePort();
  const child = spawn(
    NODE_EXPORTER,
    [`--web.listen-address=127.0.0.1:${port}`, '--collector.disable-defaults', '--collector.textfile', `--collector.textfile.directory=${dir}`, '--web.disable-exporter-metrics'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/metrics`;
  const scrape = async () => {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`node_exporter answered ${res.status}: ${await res.text()}`);
    return res.text();
  };
  // Up once it answers; it may take a moment to bind.
  for (let attempt = 0; ; attempt++) {
    try {
      await scrape();
      break;
    } catch (err) {
      if (child.exitCode !== null || attempt >= 100) {
        child.kill();
        throw new Error(`node_exporter did not start: ${(err as Error).message}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    scrape,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of an exposition, read as its grammar says (a reader of our own, for comparing
 * what went in with what node_exporter serves: it sorts labels and writes numbers its own way).
 */
export function parseExposition(text: string): ParsedSample[] {
  const samples: ParsedSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0];
    let i = name.length;
    const labels: Record<string, string> = {};
    if (line[i] === '{') {
      i++;
      while (line[i] !== '}') {
        const label = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i))![0];
        i += label.length;
        if (line.slice(i, i + 2) !== '="') throw new Error(`bad label in ${line}`);
        i += 2;
        let value = '';
        for (; line[i] !== '"'; i++) {
          if (i >= line.length) throw new Error(`unterminated label value in ${line}`);
          if (line[i] === '\\') {
            i++;
            value += line[i] === 'n' ? '\n' : line[i];
          } else value += line[i];
        }
        i++;
        labels[label] = value;
        if (line[i] === ',') i++;
      }
      i++;
    }
    const rest = line.slice(i).trim().split(/\s+/);
    samples.push({ name, labels, value: Number(rest[0]) });
  }
  return samples;
}

/** A sample as one comparable string: its name, labels sorted, and value. */
export const sampleKey = (s: ParsedSample) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)))} ${s.value}`;
