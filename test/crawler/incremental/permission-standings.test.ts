import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import type { Logger } from '../../../src/common/logger.js';
import { PermissionStandings } from '../../../src/crawler/incremental/permissions.js';
import type { ZoneItem } from '../../../src/crawler/reads/zone-read.js';

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
