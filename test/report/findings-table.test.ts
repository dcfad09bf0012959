import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/policy/findings.js';
import { FINDING_COLUMNS, findingsTable } from '../../src/report/findings-table.js';

function finding(i: number): Finding {
  const zone = { id: `z${i % 7}`, name: `zone-${i % 7}.example` };
  return {
    rule: 'dns-wildcard',
    category: 'dns',
    severity: i % 3 === 0 ? 'high' : 'low',
    status: i % 5 === 0 ? 'waived' : 'fail',
    account: { id: 'a', name: 'Acme "quoted", </script>' },
    zone,
    resource: { type: 'dns_record', id: `r${i}`, name: `host-${i}.${zone.name}` },
    message: `message ${i}: \u2028 line separator, "quotes" and <b>tags</b>`,
    messageId: 'wildcard',
    data: {},
    fingerprint: `f${i}`,
  };
}

describe('the findings table of the HTML report', () => {
  it('streams any number of findings into gzipped JSON the page can read, row for row', async () => {
    const findings = Array.from({ length: 1234 }, (_, i) => finding(i));
    const table = await findingsTable(findings);
    const json = JSON.parse(gunzipSync(Buffer.from(table.blob, 'base64')).toString('utf8')) as { columns: string[]; rows: string[][] };
    expect(json.columns).toEqual([...FINDING_COLUMNS]);
    expect(json.rows).toHaveLength(1234);
    expect(json.rows[1001]).toEqual(['fail', 'low', 'dns', 'dns-wildcard', 'Acme "quoted", </script>', 'zone-0.example', 'DNS record host-1001.zone-0.example', findings[1001]!.message, 'z0', '', '']);
    expect(json.rows.map((r) => r[6])).toEqual(findings.map((f) => `DNS record ${f.resource.name}`));
  });

  // Issue 30: a zone an incremental scan carried forward shows when its data was last read in full.
  it('carries when a carried zone was last read in full, and nothing for zones read in this scan', async () => {
    const table = await findingsTable([{ ...finding(1), zone: { id: 'z0', name: 'zone-0.example' } }, { ...finding(2), zone: { id: 'z9', name: 'other.example' } }], undefined, (zoneId) => (zoneId === 'z0' ? '2026-11-20T02:00:00.000Z' : ''));
    const rows = (JSON.parse(gunzipSync(Buffer.from(table.blob, 'base64')).toString('utf8')) as { rows: string[][] }).rows;
    expect(rows.map((r) => r[FINDING_COLUMNS.indexOf('readOn')])).toEqual(['2026-11-20T02:00:00.000Z', '']);
  });

  // Issue 24: a right-to-left override in an account or record name displayed the rest of the row reversed.
  it('shows bidirectional and invisible characters of API text as visible escapes, keeping the zone id as the filter key', async () => {
    const hostile: Finding = {
      ...finding(1),
      account: { id: 'a', name: 'Acme\u202eexe.txt' },
      zone: { id: 'z\u200b1', name: 'pay\u200bpal.example' },
      resource: { type: 'dns_record', id: 'r', name: '\u2066www\u2069.example' },
      message: 'renew \u202dnow\ufeff',
    };
    const table = await findingsTable([hostile], () => '2026-11-01T02:00:00.000Z');
    const [row] = (JSON.parse(gunzipSync(Buffer.from(table.blob, 'base64')).toString('utf8')) as { rows: string[][] }).rows;
    const at = (column: (typeof FINDING_COLUMNS)[number]) => row![FINDING_COLUMNS.indexOf(column)];
    expect(at('account')).toBe('Acme\\u202eexe.txt');
    expect(at('zone')).toBe('pay\\u200bpal.example');
    expect(at('resource')).toBe('DNS record \\u2066www\\u2069.example');
    expect(at('message')).toBe('renew \\u202dnow\\ufeff');
    expect(at('zoneId')).toBe('z\u200b1');
    expect(at('firstSeen')).toBe('2026-11-01T02:00:00.000Z');
  });

  it('writes an empty table for an audit without findings', async () => {
    const table = await findingsTable([]);
    expect(JSON.parse(gunzipSync(Buffer.from(table.blob, 'base64')).toString('utf8'))).toEqual({ columns: [...FINDING_COLUMNS], rows: [] });
  });
});
