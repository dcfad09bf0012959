import type { DatasetDnsRecord, DatasetFirewallRule, DatasetManagedRule, DatasetSecurity, Time } from './format.js';
import { MANAGED_RULESET_ID } from '../waf-mapping.js';

/**
 * Helpers for writing a dataset in code, as the demo organisation and the tests' organisations
 * are: relative times, DNS records by label, mail and CAA records, hardened zone security, and
 * firewall rules. What they return is plain dataset format (format.ts).
 */

// Times

/** `now+5d`, `now-2d` or `now`. */
export function daysFromNow(days: number): Time {
  if (days === 0) return 'now';
  return days > 0 ? `now+${days}d` : `now-${-days}d`;
}

export function ago(days: number): Time {
  return daysFromNow(-days);
}

// DNS

type RecordOptions = Partial<Omit<DatasetDnsRecord, 'type' | 'name' | 'content'>>;
/** [type, label ('@' is the apex), content, options]. */
export type Rec = [type: string, label: string, content: string, options?: RecordOptions];

/** Records of a zone by label; unproxied records get a TTL of an hour, proxied ones automatic. */
export function dns(zone: string, records: Rec[]): DatasetDnsRecord[] {
  return records.map(([type, label, content, options]) => {
    const proxied = options?.proxied ?? false;
    return { type, name: label === '@' ? zone : `${label}.${zone}`, content, proxied, ttl: proxied ? 1 : 3600, ...options };
  });
}

/** MX pair, SPF and DMARC for a zone whose mail is hosted by `provider`. */
export function mail(zone: string, provider: string): Rec[] {
  return [
    ['MX', '@', `mx1.${provider}`, { priority: 10 }],
    ['MX', '@', `mx2.${provider}`, { priority: 20 }],
    ['TXT', '@', `v=spf1 include:_spf.${provider} -all`],
    ['TXT', '_dmarc', `v=DMARC1; p=quarantine; rua=mailto:dmarc-reports@${zone}`],
  ];
}

export const CA_DOMAIN = { lets_encrypt: 'letsencrypt.org', google: 'pki.goog', digicert: 'digicert.com', ssl_com: 'ssl.com' };
export type Ca = keyof typeof CA_DOMAIN;

/** CAA `issue` records at the apex for each CA, with content and data as the API gives both. */
export function caa(...cas: Ca[]): Rec[] {
  return cas.map((ca): Rec => ['CAA', '@', `0 issue "${CA_DOMAIN[ca]}"`, { data: { flags: 0, tag: 'issue', value: CA_DOMAIN[ca] } }]);
}

/** A CAA record as answers in the wild give it: `data` only, no `content`. */
export function caaData(zone: string, flags: number, tag: string, value: string): DatasetDnsRecord {
  return { type: 'CAA', name: zone, ttl: 3600, data: { flags, tag, value } };
}

// Zone security

/**
 * Security settings as a careful team sets them: strict SSL, TLS 1.2 at least, HTTPS enforced
 * and rewritten, a year of HSTS with subdomains, hotlink protection on, DNSSEC active. Zones without a `security` field
 * keep the vendor's defaults for a new zone (full SSL, TLS 1.0, no HSTS, DNSSEC off).
 */
export function hardened(over: Omit<DatasetSecurity, 'settings'> & { settings?: NonNullable<DatasetSecurity['settings']> } = {}): DatasetSecurity {
  const { settings, ...rest } = over;
  return {
    settings: {
      ssl: 'strict',
      min_tls_version: '1.2',
      always_use_https: 'on',
      security_header: { enabled: true, max_age: 31_536_000, include_subdomains: true, nosniff: true },
      hotlink_protection: 'on',
      ...settings,
    },
    dnssec: 'active',
    dnssec_since: ago(400),
    ...rest,
  };
}

/** The managed ruleset executed on every request: what a zone of today has by default. */
export const executeManaged = (over: Partial<DatasetManagedRule> = {}): DatasetManagedRule => ({
  action: 'execute',
  expression: 'true',
  description: 'Cloudflare Managed Ruleset',
  action_parameters: { id: MANAGED_RULESET_ID, version: 'latest' },
  ...over,
});

// Firewall rules (the previous API)

/** A rule created in one call with its filter inline. */
export function inline(action: string, expression: string, description: string, extra?: Partial<DatasetFirewallRule>): DatasetFirewallRule {
  return { action, description, priority: null, filter: { expression }, ...extra };
}

/** A rule referencing a standalone filter by its `ref`. */
export function using(action: string, filterRef: string, description: string, extra?: Partial<DatasetFirewallRule>): DatasetFirewallRule {
  return { action, description, priority: null, filter: filterRef, ...extra };
}
