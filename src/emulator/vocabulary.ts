/** Enumerations of the API as the emulator enforces them (docs/api-surface.md). */

export const KNOWN_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass'] as const;

/** What a bypass firewall rule may skip. */
export const KNOWN_PRODUCTS = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'];

export const RECORD_TYPES = [
  'A', 'AAAA', 'CAA', 'CERT', 'CNAME', 'DNSKEY', 'DS', 'HTTPS', 'LOC', 'MX', 'NAPTR',
  'NS', 'OPENPGPKEY', 'PTR', 'SMIMEA', 'SRV', 'SSHFP', 'SVCB', 'TLSA', 'TXT', 'URI',
];

export const PROXIABLE_TYPES = new Set(['A', 'AAAA', 'CNAME']);

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;

/** A DNS name of labels (a leading `*.` is allowed for wildcards); no trailing dot. */
export function isHostname(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  if (labels.length < 2) return false;
  return labels.every((label, i) => (i === 0 && label === '*') || LABEL.test(label));
}

const ISSUERS: Record<string, string> = {
  lets_encrypt: 'LetsEncrypt',
  google: 'GoogleTrustServices',
  digicert: 'DigiCertInc',
  ssl_com: 'SSLCorp',
  sectigo: 'Sectigo',
};

export function issuerFor(certificateAuthority: string): string {
  return ISSUERS[certificateAuthority] ?? certificateAuthority;
}
