/**
 * DNS target resolution: the resolver against a real DNS server on loopback (never the internet),
 * and the scan's `dns_targets` read against the emulator and its loopback outside world.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeclaredReads } from '../../src/api/endpoints.js';
import { createRedactor } from '../../src/common/redact.js';
import { COMMON_OPTIONS } from '../../src/config/options.js';
import { crawl, type CrawlResult } from '../../src/crawler/crawl.js';
import { parseResolverAddress } from '../../src/common/resolver-address.js';
import { assignedNameServers, KnownNames } from '../../src/crawler/resolve/known-names.js';
import { TargetResolver, type ResolverOptions } from '../../src/crawler/resolve/resolver.js';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { worldDnsServer } from '../../src/emulator/dns/shared.js';
import { startDnsServer, type DnsReply, type RunningDnsServer } from '../../src/emulator/dns/server.js';
import { RCODE, readQuestion, writeAnswer, type Question } from '../../src/emulator/dns/wire.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';
import { SnapshotReader } from '../../src/snapshot/reader.js';
import { ScanWriter } from '../../src/snapshot/writer.js';
import { caseDataset } from '../support/case-dataset.js';
import { cliEnv, TEST_RESOLVER } from '../support/cli.js';
import { clientFor, recordingLogger } from '../support/client.js';
import { dnsServersClosedAfterEach } from '../support/dns-server.js';
import { emulatorsClosedAfterEach, TOKEN, zoneId } from '../support/http.js';

const dnsServer = dnsServersClosedAfterEach();
const emulator = emulatorsClosedAfterEach();
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

/**
 * A DNS server on loopback that holds every question until the test answers it (NXDOMAIN, oldest
 * first), counting the most it ever held unanswered.
 */
async function heldDnsServer() {
  const socket = createSocket('udp4');
  const questions: string[] = [];
  const waiting: Array<{ q: Question; port: number; address: string }> = [];
  let most = 0;
  let answered = 0;
  socket.on('message', (msg, from) => {
    const q = readQuestion(msg);
    if (!q) return;
    questions.push(q.name);
    waiting.push({ q, port: from.port, address: from.address });
    most = Math.max(most, waiting.length);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  heldServers.push(socket);
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    held: () => waiting.length,
    answered: () => answered,
    mostHeld: () => most,
    answerOne: () => {
      const next = waiting.shift();
      if (!next) return;
      answered++;
      socket.send(writeAnswer(next.q, RCODE.nameError), next.port, next.address);
    },
  };
}
const heldServers: Socket[] = [];
afterEach(() => {
  for (const s of heldServers.splice(0)) s.close();
});

describe('the resolver', () => {
  it('tells existing names, NXDOMAIN and failures apart, asking each name once', async () => {
    const server = await dnsServer({
      'app.saas.example.net': [{ type: 'A', value: '192.0.2.10' }],
      'alias.example.net': [{ type: 'CNAME', value: 'app.saas.example.net' }],
      'mail-only.example.net': [{ type: 'MX', value: '10 mx.example.net' }],
      'broken.example.net': 'servfail',
      'black-hole.example.net': 'silent',
    });
    // A limit no loopback answer comes near, however busy the machine: only the silent name reaches it.
    const resolver = new TargetResolver({ server: server.address, timeoutMs: 10_000, tries: 1, pauseMs: 5 });
    // The silent name asked of a resolver that gives up quickly: it never answers, so the limit only decides how long it takes.
    const quick = new TargetResolver({ server: server.address, timeoutMs: 150, tries: 1, pauseMs: 5 });
    // Only the loopback server is asked: never the system's resolvers.
    expect(resolver.servers()).toEqual([server.address]);
    const ask = (name: string) => resolver.resolve(name);
    // RFC 2308 2.2: NOERROR with an answer, or with none of the type asked (NODATA), means the name exists.
    expect(await ask('app.saas.example.net')).toEqual({ answer: 'exists' });
    expect(await ask('alias.example.net')).toEqual({ answer: 'exists' });
    expect(await ask('mail-only.example.net')).toEqual({ answer: 'exists' });
    // RFC 1034 4.3.2, RFC 2308 2.1: NXDOMAIN, the name does not exist.
    expect(await ask('gone.example.net')).toEqual({ answer: 'nxdomain' });
    // RFC 1035 4.1.1: SERVFAIL is the server's failure, not an answer about the name; no answer at all neither.
    expect(await ask('broken.example.net')).toEqual({ answer: 'unknown', reason: 'the resolver answered SERVFAIL' });
    expect(await quick.resolve('black-hole.example.net')).toEqual({ answer: 'unknown', reason: 'no answer before the time limit' });
    // Asked again (by another zone of the scan): the first answer, no second question.
    await Promise.all([ask('gone.example.net'), ask('app.saas.example.net'), ask('broken.example.net')]);
    // SERVFAIL is no answer: asked in two more rounds before it is left unknown (5 names, 2 rounds more for one).
    expect(resolver.asked).toBe(7);
    expect(server.questions.filter((q) => q === 'gone.example.net')).toEqual(['gone.example.net']);
    expect(server.questions.filter((q) => q === 'broken.example.net')).toHaveLength(3);
  });

  it('keeps the questions in flight within its bound', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `slow-${i}.example.net`);
    const server = await heldDnsServer();
    // No time limit comes into it: the server answers only when the test lets it, one question at a time.
    const resolver = new TargetResolver({ server: server.address, timeoutMs: 60_000, tries: 1, concurrency: 3 });
    const all = Promise.all(names.map((n) => resolver.resolve(n)));
    // Three asked, the rest waiting for a place, while none has answered; each answer lets one more in.
    while (server.questions.length < names.length) {
      while (server.held() < Math.min(3, names.length - server.answered())) await new Promise((r) => setTimeout(r, 5));
      server.answerOne();
    }
    while (server.held() > 0) {
      await new Promise((r) => setTimeout(r, 5));
      server.answerOne();
    }
    expect((await all).every((a) => a.answer === 'nxdomain')).toBe(true);
    expect(new Set(server.questions).size).toBe(12);
    // Counted as each question arrived: never more than three unanswered at the server.
    expect(server.mostHeld()).toBe(3);
  });

  it('takes an IP address with an optional port, and says what it expected otherwise', () => {
    expect(parseResolverAddress('192.0.2.53')).toEqual({ ok: true, server: '192.0.2.53' });
    expect(parseResolverAddress('127.0.0.1:5353')).toEqual({ ok: true, server: '127.0.0.1:5353' });
    expect(parseResolverAddress('2001:db8::53')).toEqual({ ok: true, server: '2001:db8::53' });
    expect(parseResolverAddress('[2001:db8::53]:5353')).toEqual({ ok: true, server: '[2001:db8::53]:5353' });
    for (const bad of ['dns.example.com', '192.0.2.53:0', '192.0.2.53:70000', '[192.0.2.53]:53', '300.1.1.1', '']) {
      const parsed = parseResolverAddress(bad);
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/^an IP address with an optional port, such as .*\(.+\)$/);
    }
    // The option's own check, one line, for the config loader.
    expect(COMMON_OPTIONS.resolver.check('127.0.0.1:53')).toBeNull();
    expect(COMMON_OPTIONS.resolver.check('dns.example.com')).toMatch(/^an IP address[^\n]*$/);
  });
});

const READS: DeclaredReads = { settings: [], objects: [], resolved: ['dns_targets'] };

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Example',
      zones: [
        {
          name: 'a.example',
          dns_records: [
            { type: 'A', name: '@', content: '203.0.113.10', proxied: true },
            { type: 'CNAME', name: 'www.@', content: 'a.example', proxied: true },
            { type: 'CNAME', name: 'jobs.@', content: 'acme.jobboard.example.com', proxied: true },
            { type: 'CNAME', name: 'status.@', content: 'a.statuspage.example.com' },
            { type: 'CNAME', name: 'blog.@', content: 'blog.b.example' },
            { type: 'MX', name: '@', content: 'mx1.mailhost.example.net', priority: 10 },
            { type: 'MX', name: 'nomail.@', content: '.', priority: 0 },
            { type: 'NS', name: 'dev.@', content: 'ns1.gone-dns.example' },
            { type: 'SRV', name: '_sip._tcp.@', content: '5 5060 mx1.mailhost.example.net', priority: 10, data: { priority: 10, weight: 5, port: 5060, target: 'mx1.mailhost.example.net' } },
          ],
        },
        { name: 'b.example', dns_records: [{ type: 'A', name: 'blog.@', content: '203.0.113.20' }] },
      ],
    },
  ],
};

async function scan(emu: RunningEmulator, resolver: ResolverOptions | undefined, reads: DeclaredReads = READS): Promise<SnapshotReader> {
  return (await scanWithResult(emu, resolver, reads)).reader;
}

async function scanWithResult(emu: RunningEmulator, resolver: ResolverOptions | undefined, reads: DeclaredReads = READS): Promise<{ reader: SnapshotReader; result: CrawlResult }> {
  const db = openSnapshot(':memory:');
  dbs.push(db);
  const client = clientFor(emu, { budget: 1_000_000, budgetWindowMs: 1000, retries: 0 });
  try {
    const writer = ScanWriter.start(db, emu.url, { accounts: [], zones: [] }, createRedactor([TOKEN]));
    const result = await crawl({ client, writer, scope: { accounts: [], zones: [] }, concurrency: 2, logger: recordingLogger(), reads, ...(resolver ? { resolver } : {}) });
    writer.finish(result.missing.length ? 'incomplete' : 'complete', {});
    return { reader: new SnapshotReader(db, writer.scanId), result };
  } finally {
    await client.close();
  }
}

const targetsOf = (reader: SnapshotReader, zone: string) => {
  const r = reader.zoneObject(zone, 'dns_targets');
  return r.known ? r.items.map((i) => JSON.parse(i.raw) as Record<string, unknown>) : r;
};

describe('the dns_targets read', () => {
  it("stores each name the zone's records point at outside it with the answer, asking the loopback world each name once", async () => {
    const emu = await emulator({ dataset });
    const world = await worldDnsServer();
    const before = world.questions.length;
    const reader = await scan(emu, { server: world.address });
    // In-zone names (www -> a.example) are the audit's to judge from the records, a null MX names no host (RFC 7505).
    expect(targetsOf(reader, zoneId(emu, 'a.example'))).toEqual([
      { name: 'a.statuspage.example.com', type: 'CNAME', answer: 'nxdomain' },
      { name: 'acme.jobboard.example.com', type: 'CNAME', answer: 'exists' },
      // Another zone of the organisation: asked too (zones are read concurrently), answered by the world from its records.
      { name: 'blog.b.example', type: 'CNAME', answer: 'exists' },
      { name: 'mx1.mailhost.example.net', type: 'MX,SRV', answer: 'exists' },
      { name: 'ns1.gone-dns.example', type: 'NS', answer: 'nxdomain' },
    ]);
    expect(targetsOf(reader, zoneId(emu, 'b.example'))).toEqual([]);
    const asked = world.questions.slice(before);
    // And, once for the scan before any target, the name servers the API assigned to the zones (names known to exist).
    expect([...asked].sort()).toEqual(['a.statuspage.example.com', 'acme.jobboard.example.com', 'ada.ns.example.net', 'blog.b.example', 'bob.ns.example.net', 'mx1.mailhost.example.net', 'ns1.gone-dns.example']);
  });

  it('asks nothing when no rule declares it, or when the crawl is given no resolver', async () => {
    const emu = await emulator({ dataset });
    const world = await worldDnsServer();
    const before = world.questions.length;
    const off = await scan(emu, { server: world.address }, { settings: [], objects: [] });
    expect(targetsOf(off, zoneId(emu, 'a.example'))).toMatchObject({ known: false, state: 'not-read' });
    const none = await scan(emu, undefined);
    expect(targetsOf(none, zoneId(emu, 'a.example'))).toMatchObject({ known: false, state: 'not-read' });
    expect(world.questions.length).toBe(before);
  });

  it("answers the tests' organisation's targets from the world: its given-up status page is NXDOMAIN", async () => {
    const emu = await emulator({ dataset: caseDataset() });
    const world = await worldDnsServer();
    const reader = await scan(emu, { server: world.address });
    const northwind = targetsOf(reader, zoneId(emu, 'northwind.example'));
    expect(northwind).toContainEqual({ name: 'northwind.statuspage.example.com', type: 'CNAME', answer: 'nxdomain' });
    expect(northwind).toContainEqual({ name: 'northwind-assets.storage.example.net', type: 'CNAME', answer: 'exists' });
  });
});

/** A loopback DNS server answering each question from a function of the name and how often it was asked. */
async function scriptedDnsServer(answer: (name: string, times: number) => DnsReply) {
  const seen = new Map<string, number>();
  const server = await startDnsServer((q) => {
    const times = (seen.get(q.name) ?? 0) + 1;
    seen.set(q.name, times);
    return answer(q.name, times);
  });
  scripted.push(server);
  return server;
}
const scripted: RunningDnsServer[] = [];
afterEach(async () => {
  for (const s of scripted.splice(0)) await s.close();
});

describe('the resolver check (names known to exist before any NXDOMAIN is believed)', () => {
  const ASSIGNED = ['ada.ns.example.net', 'bob.ns.example.net'];
  const TARGETS = ['a.statuspage.example.com', 'acme.jobboard.example.com', 'blog.b.example', 'mx1.mailhost.example.net', 'ns1.gone-dns.example'];

  it('asks a resolver that denies every name (a locked-down runner) only the assigned name servers, and stores every target as unknown', async () => {
    const emu = await emulator({ dataset });
    // The tests' DNS server with an empty table: NXDOMAIN for every name, as such a resolver answers.
    const deny = await dnsServer({});
    const { reader, result } = await scanWithResult(emu, { server: deny.address });
    const targets = targetsOf(reader, zoneId(emu, 'a.example')) as Array<Record<string, unknown>>;
    expect(targets.map((t) => t['name'])).toEqual(TARGETS);
    for (const t of targets) {
      expect(t['answer']).toBe('unknown');
      expect(t['reason']).toMatch(/^the resolver answered NXDOMAIN for names known to exist, so none of its answers was believed/);
    }
    // Two questions for the whole scan, whatever the number of zones and targets.
    expect([...deny.questions].sort()).toEqual(ASSIGNED);
    expect(result.resolver).toMatchObject({ trusted: false, servers: [deny.address], names: ASSIGNED.map((name) => ({ name, answer: 'nxdomain' })) });
    expect(result.resolver?.reason).toMatch(/answered NXDOMAIN \(no such name\) for ada\.ns\.example\.net, bob\.ns\.example\.net, name servers the API assigned .*pass --resolver/);
  });

  it('does not believe a resolver that denies one of them while it answers the other', async () => {
    const emu = await emulator({ dataset });
    const partial = await dnsServer({ 'ada.ns.example.net': [{ type: 'A', value: '192.0.2.1' }] });
    const { reader, result } = await scanWithResult(emu, { server: partial.address });
    expect(result.resolver).toMatchObject({ trusted: false, names: [{ name: 'ada.ns.example.net', answer: 'exists' }, { name: 'bob.ns.example.net', answer: 'nxdomain' }] });
    expect((targetsOf(reader, zoneId(emu, 'a.example')) as Array<Record<string, unknown>>).every((t) => t['answer'] === 'unknown')).toBe(true);
  });

  it('believes a resolver that answers for them: its NXDOMAIN for a target stands', async () => {
    const emu = await emulator({ dataset });
    const honest = await dnsServer({ 'ada.ns.example.net': [{ type: 'A', value: '192.0.2.1' }], 'bob.ns.example.net': [{ type: 'A', value: '192.0.2.2' }] });
    const { reader, result } = await scanWithResult(emu, { server: honest.address });
    expect(result.resolver).toMatchObject({ trusted: true, reason: null });
    expect(targetsOf(reader, zoneId(emu, 'a.example'))).toContainEqual({ name: 'ns1.gone-dns.example', type: 'NS', answer: 'nxdomain' });
  });

  it('does not judge with a resolver that gives no answer about them', async () => {
    const emu = await emulator({ dataset });
    const silent = await scriptedDnsServer(() => ({ rcode: 'silent' }));
    const { reader, result } = await scanWithResult(emu, { server: silent.address, timeoutMs: 100, tries: 1, rounds: 1, pauseMs: 5 });
    expect(result.resolver?.trusted).toBe(false);
    expect(result.resolver?.reason).toMatch(/gave no answer about ada\.ns\.example\.net, bob\.ns\.example\.net, .*\(no answer before the time limit\)/);
    expect((targetsOf(reader, zoneId(emu, 'a.example')) as Array<Record<string, unknown>>).every((t) => t['answer'] === 'unknown' && /gave no answer about names known to exist/.test(String(t['reason'])))).toBe(true);
    // Each name server asked twice (a round after no answer); no target asked.
    expect([...silent.questions].sort()).toEqual(['ada.ns.example.net', 'ada.ns.example.net', 'bob.ns.example.net', 'bob.ns.example.net']);
  });

  it('takes the name servers of active zones first, never names under the zone itself, at most three', () => {
    const known = new KnownNames();
    known.offer({ name: 'pending.example', status: 'pending', name_servers: ['x.ns.example.net', 'y.ns.example.net'] });
    // Zone custom nameservers live under the zone: an internal resolver that knows only the organisation's zones answers them.
    known.offer({ name: 'a.example', status: 'active', name_servers: ['ns1.a.example', 'Ada.NS.example.net.'] });
    known.offer({ name: 'b.example', status: 'active', name_servers: ['ada.ns.example.net', 'bob.ns.example.net', 'cy.ns.example.net', 'dee.ns.example.net'] });
    expect(known.pick()).toEqual(['ada.ns.example.net', 'bob.ns.example.net', 'cy.ns.example.net']);
    const onlyPending = new KnownNames();
    onlyPending.offer({ name: 'pending.example', status: 'pending', name_servers: ['x.ns.example.net', 'y.ns.example.net'] });
    expect(onlyPending.pick()).toEqual(['x.ns.example.net', 'y.ns.example.net']);
    expect(assignedNameServers({ name: 'c.example', name_servers: 'not a list' })).toEqual([]);
  });

  it('asks name servers under another zone of the scan (account custom nameservers) only where no other name is known', () => {
    // vendor docs: account custom nameservers: an account may serve its zones from name servers named under one of
    // its own zones; an internal resolver that knows only the organisation's zones answers those as well.
    const known = new KnownNames();
    known.offer({ name: 'shop.example', status: 'active', name_servers: ['ns1.acme-dns.example', 'ns2.acme-dns.example'] });
    known.offer({ name: 'acme-dns.example', status: 'active', name_servers: ['ada.ns.example.net', 'bob.ns.example.net'] });
    expect(known.pick()).toEqual(['ada.ns.example.net', 'bob.ns.example.net']);
    const onlyCustom = new KnownNames();
    onlyCustom.offer({ name: 'acme-dns.example', status: 'pending', name_servers: [] });
    for (let i = 0; i < 5; i++) onlyCustom.offer({ name: `z${i}.example`, status: 'active', name_servers: ['ns1.acme-dns.example', 'ns2.acme-dns.example'] });
    expect(onlyCustom.pick()).toEqual(['ns1.acme-dns.example', 'ns2.acme-dns.example']);
    // A zone listed later with an assigned name: that name alone, though the others came first and are of active zones.
    onlyCustom.offer({ name: 'late.example', status: 'pending', name_servers: ['cy.ns.example.net'] });
    expect(onlyCustom.pick()).toEqual(['cy.ns.example.net']);
  });
});

describe('a name with no answer (a timeout, SERVFAIL)', () => {
  // The server stays silent the first time a name is asked and answers after: a resolver (or a machine) busy for a moment.
  const busyThenAnswers = () => scriptedDnsServer((name, times) => (times === 1 ? { rcode: 'silent' } : name.startsWith('gone.') ? { rcode: 'nxdomain' } : { rcode: 'noerror' }));

  it('is asked again after a pause, so a busy moment does not decide the answer', async () => {
    const server = await busyThenAnswers();
    const resolver = new TargetResolver({ server: server.address, timeoutMs: 100, tries: 1, pauseMs: 5 });
    expect(await resolver.resolve('app.example.net')).toEqual({ answer: 'exists' });
    expect(await resolver.resolve('gone.example.net')).toEqual({ answer: 'nxdomain' });
    expect(server.questions).toEqual(['app.example.net', 'app.example.net', 'gone.example.net', 'gone.example.net']);
  });

  it('stays unknown without rounds left', async () => {
    const server = await busyThenAnswers();
    const resolver = new TargetResolver({ server: server.address, timeoutMs: 100, tries: 1, rounds: 0 });
    expect(await resolver.resolve('app.example.net')).toEqual({ answer: 'unknown', reason: 'no answer before the time limit' });
  });
});

describe('the test harness', () => {
  it('points every CLI run of the tests at the loopback world, never the system resolver', async () => {
    const world = await worldDnsServer();
    expect(TEST_RESOLVER).toBe(world.address);
    expect(TEST_RESOLVER).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(cliEnv({ ZONEWARDEN_API_TOKEN: TOKEN })['ZONEWARDEN_RESOLVER']).toBe(TEST_RESOLVER);
  });
});
