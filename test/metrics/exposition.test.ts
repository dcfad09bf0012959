import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeLabelValue, renderExposition } from '../../src/metrics/exposition.js';
import { metricsPathProblem, writeMetricsFile } from '../../src/metrics/write-file.js';
import { parseExposition } from '../support/prometheus.js';

/**
 * The text exposition format, version 0.0.4 (Prometheus docs, "Exposition formats"): in a label
 * value, backslash, double quote and line feed are escaped as \\, \" and \n; in HELP text,
 * backslash and line feed. Every other character of a value is itself.
 */
describe('the exposition format', () => {
  const hostile = 'a"b\\c\nzonewarden_forged{x="1"} 1\n# TYPE x counter\r\t\u0000 ünï';

  it('escapes backslash, double quote and line feed in label values, and nothing else', () => {
    // Prometheus docs, Exposition formats: label_value can be any sequence of UTF-8 characters, but the backslash, double-quote and line feed must be escaped
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    expect(escapeLabelValue('plain ünï\t')).toBe('plain ünï\t');
  });

  it('keeps a hostile value inside its label: one line per sample, read back unchanged', () => {
    const text = renderExposition([{ name: 'zonewarden_test', help: 'h', type: 'gauge', samples: [{ labels: { zone: hostile, other: 'x' }, value: 1 }, { labels: { zone: 'b' }, value: 2 }] }]);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('zonewarden_forged'))).toEqual([]);
    expect(parseExposition(text)).toEqual([
      { name: 'zonewarden_test', labels: { zone: hostile, other: 'x' }, value: 1 },
      { name: 'zonewarden_test', labels: { zone: 'b' }, value: 2 },
    ]);
  });

  it('escapes HELP text (backslash and line feed) and writes HELP and TYPE before the samples', () => {
    const text = renderExposition([{ name: 'zonewarden_x_seconds', help: 'one\ntwo \\ "three"', type: 'gauge', samples: [{ value: 1.5 }] }]);
    expect(text).toBe('# HELP zonewarden_x_seconds one\\ntwo \\\\ "three"\n# TYPE zonewarden_x_seconds gauge\nzonewarden_x_seconds 1.5\n');
  });

  it('leaves out a family without samples, and writes NaN and the infinities as Go parses them', () => {
    const text = renderExposition([
      { name: 'zonewarden_empty', help: 'h', type: 'gauge', samples: [] },
      { name: 'zonewarden_v', help: 'h', type: 'gauge', samples: [{ labels: { k: 'a' }, value: Number.NaN }, { labels: { k: 'b' }, value: Number.POSITIVE_INFINITY }, { labels: { k: 'c' }, value: Number.NEGATIVE_INFINITY }] },
    ]);
    expect(text).not.toContain('zonewarden_empty');
    expect(text).toContain('zonewarden_v{k="a"} NaN\nzonewarden_v{k="b"} +Inf\nzonewarden_v{k="c"} -Inf\n');
  });

  it('refuses a bad metric or label name, and a family listed twice (bugs, not data)', () => {
    const family = (name: string, labels: Record<string, string> = {}) => ({ name, help: 'h', type: 'gauge' as const, samples: [{ labels, value: 1 }] });
    expect(() => renderExposition([family('zonewarden-bad')])).toThrow(/invalid metric name/);
    expect(() => renderExposition([family('zonewarden_ok', { 'bad-label': 'x' })])).toThrow(/invalid label name/);
    expect(() => renderExposition([family('zonewarden_ok', { __name__: 'x' })])).toThrow(/invalid label name/);
    expect(() => renderExposition([family('zonewarden_ok'), family('zonewarden_ok')])).toThrow(/listed twice/);
  });
});

describe('the metrics file', () => {
  it('is replaced by a rename, never rewritten in place, and readable by the collector whatever the umask', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-metrics-file-'));
    const path = join(dir, 'zonewarden.prom');
    writeFileSync(path, 'old 1\n');
    const before = statSync(path).ino;
    const previous = process.umask(0o077);
    try {
      writeMetricsFile(path, 'new 2\n');
    } finally {
      process.umask(previous);
    }
    expect(readFileSync(path, 'utf8')).toBe('new 2\n');
    // A new inode: a reader holding the old file saw it whole; no reader sees a half-written one.
    expect(statSync(path).ino).not.toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    // No temporary file is left behind, and none ever ends in .prom (the collector's glob).
    expect(readdirSync(dir)).toEqual(['zonewarden.prom']);
  });

  it('leaves the old file and no temporary one when the new one cannot be written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-metrics-file-'));
    // The target is a directory: the rename fails after the temporary file was written.
    const path = join(dir, 'taken.prom');
    writeFileSync(join(dir, 'keep.prom'), 'old 1\n');
    mkdirSync(path);
    expect(() => writeMetricsFile(path, 'x 1\n')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['keep.prom', 'taken.prom']);
  });

  it('names what is wrong with a path that cannot be written, before a job starts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zw-metrics-file-'));
    expect(metricsPathProblem(join(dir, 'zonewarden.prom'))).toBeNull();
    expect(metricsPathProblem(join(dir, 'missing', 'zonewarden.prom'))).toMatch(/the directory .*missing does not exist; create it/);
    writeFileSync(join(dir, 'file'), '');
    expect(metricsPathProblem(join(dir, 'file', 'zonewarden.prom'))).toMatch(/is not a directory/);
  });
});
