import { describe, expect, it } from 'vitest';
import { HostPatterns, normaliseHostname } from '../../../src/cloudflare/dns/hostnames.js';

const patterns = (...hosts: string[]) => {
  const p = new HostPatterns<string>();
  for (const h of hosts) p.add(h, h);
  return p;
};

describe('normaliseHostname', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['WWW.Example.com.', 'www.example.com'],
    ['*.Example.com.', '*.example.com'],
    ['example.com', 'example.com'],
  ])('%s -> %s', (name, expected) => {
    expect(normaliseHostname(name)).toBe(expected);
  });
});

describe('HostPatterns', () => {
  it('matches exact names whatever their case and trailing dot', () => {
    const p = patterns('Example.com', 'www.example.com.');
    expect(p.covers('example.com')).toBe(true);
    expect(p.covers('EXAMPLE.COM.')).toBe(true);
    expect(p.covers('WWW.example.com')).toBe(true);
    expect(p.covers('api.example.com')).toBe(false);
  });

  it('lets a wildcard cover exactly one label', () => {
    const p = patterns('*.example.com');
    expect(p.covers('a.example.com')).toBe(true);
    expect(p.covers('A.Example.Com.')).toBe(true);
    expect(p.covers('example.com')).toBe(false);
    expect(p.covers('a.b.example.com')).toBe(false);
    expect(p.covers('aexample.com')).toBe(false);
    expect(p.covers('a.example.org')).toBe(false);
  });

  it('serves a wildcard record name by the same wildcard only', () => {
    expect(patterns('*.example.com').covers('*.example.com')).toBe(true);
    expect(patterns('*.example.com').covers('*.a.example.com')).toBe(false);
    expect(patterns('a.example.com').covers('*.example.com')).toBe(false);
  });

  it('does not treat a bare top-level name as a wildcard base', () => {
    expect(patterns('*.com').covers('example.com')).toBe(true);
    expect(patterns('*.example.com').covers('com')).toBe(false);
    expect(patterns('example.com').covers('')).toBe(false);
  });

  it('returns the value of the matching pattern, an exact one first, the first added kept', () => {
    const p = new HostPatterns<string>();
    p.add('*.example.com', 'wildcard');
    p.add('a.example.com', 'exact');
    p.add('a.example.com', 'later');
    expect(p.match('a.example.com')).toBe('exact');
    expect(p.match('b.example.com')).toBe('wildcard');
    expect(p.match('example.com')).toBeUndefined();
  });

  it('looks up a large set of names, exact and under a wildcard', () => {
    // How fast is a benchmark's question (npm run bench); here, that a large set answers right.
    const p = new HostPatterns<true>();
    for (let i = 0; i < 100_000; i++) p.add(`h${i}.example.com`, true);
    p.add('*.w.example.com', true);
    let covered = 0;
    for (let i = 0; i < 100_000; i++) if (p.covers(`h${i}.example.com`) && p.covers(`x${i}.w.example.com`)) covered++;
    expect(covered).toBe(100_000);
    expect(p.covers('h100000.example.com')).toBe(false);
    expect(p.covers('a.b.w.example.com')).toBe(false);
  });
});
