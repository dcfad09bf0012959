/**
 * The side-by-side of the vendor's own scanner (Security Insights) with zonewarden's verdicts: a
 * table of one zone each, for every kind of agreement and difference, with the vendor's documented
 * limits as the grounds.
 */
import { describe, expect, it } from 'vitest';
import { pairInsights, type AccountSide, type VendorIssue, type ZoneFinding, type ZoneSide } from '../../src/report/vendor-insights.js';

const ACCOUNT: AccountSide = { id: 'acc', name: 'Example', state: 'read', reason: null, zones: 1 };
const RAN = new Set(['hsts-weak', 'managed-ruleset-not-deployed', 'https-not-enforced', 'email-dmarc-missing', 'tls-minimum-version']);

const issue = (issueClass: string, over: Partial<VendorIssue> = {}): VendorIssue => ({
  id: `i-${issueClass}`,
  accountId: 'acc',
  zoneId: 'z1',
  issueClass,
  issueType: 'insecure_configuration',
  severity: 'Moderate',
  subject: 'one.example',
  resolveText: 'fix it',
  resolveLink: '/acc/one.example/ssl-tls',
  since: '2026-10-01T00:00:00Z',
  timestamp: '2026-10-30T00:00:00Z',
  ...over,
});

const finding = (rule: string, over: Partial<ZoneFinding> = {}): ZoneFinding => ({ rule, status: 'fail', severity: 'high', resourceName: 'one.example', message: `${rule} fails`, messageId: null, ...over });

const zone = (over: Partial<ZoneSide> = {}): ZoneSide => ({ id: 'z1', name: 'one.example', accountId: 'acc', plan: 'pro', findings: [], managedAtAccount: null, changed: [], ...over });

const cases: Array<{ name: string; issues: VendorIssue[]; zone: ZoneSide; account?: AccountSide; expected: Array<{ agreement: string; verdict: string; why: RegExp; type: string | null }>; notJudged?: number }> = [
  {
    name: 'both flag HSTS off: agree',
    issues: [issue('hsts_not_enabled')],
    zone: zone({ findings: [finding('hsts-weak')] }),
    expected: [{ agreement: 'agree', verdict: 'fail', why: /both flag it/, type: 'hsts_not_enabled' }],
  },
  {
    // vendor docs: Security Insights, known limitations: account-level managed rules may be missed.
    name: 'the vendor misses an account-level deployment: it flags what zonewarden passes, on that ground',
    issues: [issue('waf_not_enabled', { severity: 'Critical' })],
    zone: zone({ plan: 'enterprise', managedAtAccount: 'deploy managed to clinic' }),
    expected: [{ agreement: 'vendor-only', verdict: 'pass', why: /deployed at the account level \(rule "deploy managed to clinic"\)/, type: 'waf_not_enabled' }],
  },
  {
    // vendor docs: Security Insights, known limitations: a managed ruleset in log mode still counts as deployed.
    name: 'log mode: zonewarden fails what the vendor does not flag',
    issues: [],
    zone: zone({ findings: [finding('managed-ruleset-not-deployed', { messageId: 'logOnly' })] }),
    expected: [{ agreement: 'zonewarden-only', verdict: 'fail', why: /log mode, which the vendor counts as deployed/, type: 'waf_not_enabled' }],
  },
  {
    // vendor docs: Security Insights, how it works: scans every 3 days on Pro, so an insight can predate a fix.
    name: "the vendor's insight is older than the configuration zonewarden read",
    issues: [issue('always_https_not_enabled')],
    zone: zone({ changed: [{ what: 'setting always_use_https', at: '2026-10-31T09:00:00Z' }] }),
    expected: [{ agreement: 'vendor-older', verdict: 'pass', why: /before setting always_use_https changed \(2026-10-31T09:00:00Z\).*every 3 days on the pro plan/, type: 'always_https_not_enabled' }],
  },
  {
    name: 'a change before the vendor scanned does not make its insight stale',
    issues: [issue('always_https_not_enabled')],
    zone: zone({ changed: [{ what: 'setting always_use_https', at: '2026-10-29T09:00:00Z' }] }),
    expected: [{ agreement: 'vendor-only', verdict: 'pass', why: /zonewarden passes it \(https-not-enforced\)/, type: 'always_https_not_enabled' }],
  },
  {
    name: 'an alias of the identifier pairs as the identifier',
    issues: [issue('always_use_https_not_enabled')],
    zone: zone({ findings: [finding('https-not-enforced')] }),
    expected: [{ agreement: 'agree', verdict: 'fail', why: /both flag it/, type: 'always_use_https_not_enabled' }],
  },
  {
    name: "a waived zonewarden finding still agrees, and says so",
    issues: [issue('dmarc', { issueType: 'email_security' })],
    zone: zone({ findings: [finding('email-dmarc-missing', { status: 'waived' })] }),
    expected: [{ agreement: 'agree', verdict: 'waived', why: /waived/, type: 'dmarc' }],
  },
  {
    name: 'zonewarden could not judge it',
    issues: [issue('tls_version_old')],
    zone: zone({ findings: [finding('tls-minimum-version', { status: 'unknown', message: 'min_tls_version: denied' })] }),
    expected: [{ agreement: 'unknown', verdict: 'unknown', why: /could not judge it: min_tls_version: denied/, type: 'tls_version_old' }],
  },
  {
    name: 'an insight type zonewarden does not judge is listed apart',
    issues: [issue('rdp_server_exposed'), issue('brand_new_class')],
    zone: zone(),
    expected: [],
    notJudged: 2,
  },
  {
    // vendor docs: known limitations: accounts over 10,000 zones get no account view: no failure is the vendor's silence then.
    name: 'without the account view (refused, or over 10,000 zones) zonewarden failures are not called unflagged',
    issues: [],
    account: { ...ACCOUNT, state: 'too-large', zones: 10_001 },
    zone: zone({ findings: [finding('hsts-weak')] }),
    expected: [],
  },
  {
    name: "a record's insight pairs with the finding of that record only",
    issues: [issue('tls_version_old', { subject: 'api.one.example' })],
    zone: zone({ findings: [finding('tls-minimum-version', { resourceName: 'www.one.example' })] }),
    expected: [
      { agreement: 'vendor-only', verdict: 'pass', why: /zonewarden passes it/, type: 'tls_version_old' },
      { agreement: 'zonewarden-only', verdict: 'fail', why: /does not flag it/, type: 'tls_version_old' },
    ],
  },
];

describe('pairing the vendor insights with zonewarden verdicts', () => {
  for (const c of cases) {
    it(c.name, () => {
      const result = pairInsights({ issues: c.issues, accounts: [c.account ?? ACCOUNT], zones: [c.zone], rulesRan: RAN });
      expect(result.rows.map((r) => ({ agreement: r.agreement, verdict: r.verdict, type: r.type.issueClass }))).toEqual(c.expected.map(({ agreement, verdict, type }) => ({ agreement, verdict, type })));
      result.rows.forEach((r, i) => expect(r.why).toMatch(c.expected[i]!.why));
      expect(result.counts.notJudged).toBe(c.notJudged ?? 0);
    });
  }

  it('leaves out insights of zones outside the report', () => {
    const result = pairInsights({ issues: [issue('hsts_not_enabled', { zoneId: 'elsewhere' })], accounts: [ACCOUNT], zones: [zone()], rulesRan: RAN });
    expect(result.rows).toEqual([]);
    expect(result.vendorOnly).toEqual([]);
  });
});
