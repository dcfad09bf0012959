import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { Logger } from '../../../src/common/logger.js';
import { PERMISSION_GROUPS, PermissionStandings } from '../../../src/crawler/incremental/permissions.js';
import type { ZoneItem } from '../../../src/crawler/zone-item.js';

const quiet = { warn() {}, info() {}, verbose() {}, error() {} } as unknown as Logger;

describe('PermissionStandings', () => {
  it("leaves no abort listener behind on the scan's signal however often a probe waits for zones read in full", async () => {
    const calls: string[] = [];
    const client = { get: async (path: string) => (calls.push(path), { result: {} }) } as unknown as ApiClient;
    const standings = new PermissionStandings(quiet);
    const signal = new AbortController().signal;
    const zone: ZoneItem = { id: 'z1', name: 'example.com' };

    // A zone read in full is under way: the probe of bot management waits for it to answer first.
    let endRead!: () => void;
    const fullRead = standings.duringFullRead(client, () => new Promise<void>((resolve) => (endRead = resolve)));
    const probe = standings.confirm(client, zone, ['bot_management'], [], signal);
    // Other groups answer, 100 times in a night: each wakes the probe, which waits again.
    for (let i = 0; i < 100; i++) {
      standings.observe(client, 'dnssec', { granted: true });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(1);

    // The full read ends without answering for bot management: the probe asks, once.
    endRead();
    await fullRead;
    await probe;
    expect(calls).toEqual(['/zones/z1/bot_management']);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});

describe('PERMISSION_GROUPS, derived from the registry of reads', () => {
  const zone: ZoneItem = { id: 'z1', name: 'example.com' };
  const group = (partition: string) => PERMISSION_GROUPS.find((g) => g.partitions.includes(partition as never))!;

  it("checks security.txt on its own, though it is read with the settings' permission, and the settings by the first declared one", () => {
    const settings = PERMISSION_GROUPS.filter((g) => g.label === 'Zone · Zone Settings · Read');
    expect(settings.map((g) => g.partitions)).toEqual([['zone_settings'], ['security_txt']]);
    expect(group('zone_settings').probe(zone, ['ssl', 'min_tls_version'])).toEqual({ path: '/zones/z1/settings/ssl' });
    // No setting declared tonight: nothing of the settings is asked, so no probe either.
    expect(group('zone_settings').probe(zone, [])).toBeNull();
    expect(group('security_txt').probe(zone, [])).toEqual({ path: '/zones/z1/security-center/securitytxt' });
  });

  it("probes a list group with the list's smallest page, and leaves out the reads the vendor names no group for", () => {
    // docs/api-surface.md: filters are paged 5 to 100 a page; vendor's API reference: list zone rulesets, per_page 1 to 50.
    expect(group('waf_rules').probe(zone, [])).toEqual({ path: '/zones/z1/filters', query: { page: '1', per_page: '5' } });
    expect(group('custom_entrypoint').probe(zone, [])).toEqual({ path: '/zones/z1/rulesets', query: { per_page: '1' } });
    expect(group('migration_status')).toBeUndefined();
    // The account's entry point is asked of the account, not of a carried zone's own path.
    expect(group('account_entrypoint')).toBeUndefined();
  });
});
