/**
 * What the emulator serves for the client-side security settings, the security.txt and the
 * notification policies, over real HTTP, and what the dataset loader refuses for them.
 */
import { describe, expect, it } from 'vitest';
import type { DatasetFile } from '../../src/emulator/datasets/format.js';
import { buildOrganisation } from '../../src/emulator/datasets/index.js';
import { emulatorPerDescribe, get, NOW, zoneId } from '../support/http.js';
import { expectOk } from '../support/envelope.js';

const dataset: DatasetFile = {
  version: 1,
  accounts: [
    {
      name: 'Shop Group',
      zones: [
        { name: 'plain.example', plan: 'free' },
        {
          name: 'set.example',
          plan: 'business',
          security: {
            page_shield: { enabled: true, use_connection_url_path: true, updated_at: 'now-5d' },
            security_txt: { contact: ['mailto:security@set.example'], expires: 'now+30d', encryption: ['https://set.example/pgp.txt'], policy: ['https://set.example/policy'] },
          },
        },
        { name: 'stale.example', plan: 'pro', security: { security_txt: { contact: [] } } },
      ],
      notification_policies: [
        { name: 'Skimmers', alert_type: 'scriptmonitor_alert_new_malicious_scripts', zones: ['set.example'] },
        { name: 'Changes', alert_type: 'scriptmonitor_alert_new_code_change_detections', enabled: false, email: 'soc@set.example' },
      ],
    },
    { name: 'Empty Ltd', zones: [{ name: 'empty.example', plan: 'free' }] },
  ],
};

const iso = (offsetDays: number) => new Date(NOW.getTime() + offsetDays * 86_400_000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

describe('client-side security, security.txt and notification policies', () => {
  const emulator = emulatorPerDescribe({ dataset });
  const path = (zone: string, rest: string) => `/zones/${zoneId(emulator(), zone)}${rest}`;
  const accountId = (name: string) => emulator().org.state.accounts.find((a) => a.name === name)!.id;

  it('serves the client-side security settings: off by default, reporting to the vendor', async () => {
    // vendor's API reference: Page Shield settings: enabled, updated_at, use_cloudflare_reporting_endpoint, use_connection_url_path.
    const plain = expectOk(await get(emulator(), path('plain.example', '/page_shield')));
    expect(Object.keys(plain).sort()).toEqual(['enabled', 'updated_at', 'use_cloudflare_reporting_endpoint', 'use_connection_url_path']);
    expect(plain).toMatchObject({ enabled: false, use_cloudflare_reporting_endpoint: true, use_connection_url_path: false });
    expect(expectOk(await get(emulator(), path('set.example', '/page_shield')))).toEqual({ enabled: true, use_cloudflare_reporting_endpoint: true, use_connection_url_path: true, updated_at: iso(-5) });
  });

  it('serves the security.txt as set up, result null where none is', async () => {
    // vendor's API reference: Security TXT: result optional; its fields lists of URIs, expires a date-time.
    expect(expectOk(await get(emulator(), path('plain.example', '/security-center/securitytxt')))).toBeNull();
    expect(expectOk(await get(emulator(), path('set.example', '/security-center/securitytxt')))).toMatchObject({
      enabled: true,
      contact: ['mailto:security@set.example'],
      expires: iso(30),
      encryption: ['https://set.example/pgp.txt'],
      policy: ['https://set.example/policy'],
    });
    // A file stored without Expires (before the vendor required it) is answered without the field.
    expect(expectOk(await get(emulator(), path('stale.example', '/security-center/securitytxt')))).not.toHaveProperty('expires');
  });

  it('lists an account\'s notification policies whole, a zone filter as zone ids', async () => {
    // vendor's API reference: Notification policies: id, name, alert_type, enabled, mechanisms, filters.zones.
    const policies = expectOk(await get(emulator(), `/accounts/${accountId('Shop Group')}/alerting/v3/policies`)) as Array<Record<string, unknown>>;
    expect(policies).toEqual([
      expect.objectContaining({ name: 'Skimmers', alert_type: 'scriptmonitor_alert_new_malicious_scripts', enabled: true, filters: { zones: [zoneId(emulator(), 'set.example')] }, mechanisms: { email: [{ id: 'security@plain.example' }] } }),
      expect.objectContaining({ name: 'Changes', alert_type: 'scriptmonitor_alert_new_code_change_detections', enabled: false, filters: {}, mechanisms: { email: [{ id: 'soc@set.example' }] } }),
    ]);
    expect(expectOk(await get(emulator(), `/accounts/${accountId('Empty Ltd')}/alerting/v3/policies`))).toEqual([]);
  });
});

describe('the dataset loader', () => {
  const load = (account: Record<string, unknown>) => () => buildOrganisation({ version: 1, accounts: [{ name: 'A', zones: [{ name: 'a.example' }], ...account }] } as unknown as DatasetFile, NOW);

  it('refuses a policy limited to a zone the account does not have, and unknown fields', () => {
    expect(load({ notification_policies: [{ name: 'P', alert_type: 'scriptmonitor_alert_new_malicious_scripts', zones: ['b.example'] }] })).toThrow(/zones\[0\]: no zone b\.example in account A/);
    expect(load({ notification_policies: [{ name: 'P', alert_type: 'x', colour: 'red' }] })).toThrow(/colour/);
    expect(load({ zones: [{ name: 'a.example', security: { page_shield: { enabled: 'yes' } } }] })).toThrow(/page_shield\.enabled/);
    expect(load({ zones: [{ name: 'a.example', security: { security_txt: { contact: 'mailto:x@a.example' } } }] })).toThrow(/security_txt\.contact/);
  });
});
