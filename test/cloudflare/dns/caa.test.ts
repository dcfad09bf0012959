import { describe, expect, it } from 'vitest';
import { caaAllows, caaOf, describeProperty, governingProperties, mayStopIssuance, parseCaa, relevantCaa, servedForm, type CaaRecord } from '../../../src/cloudflare/dns/caa.js';

const rec = (content: string, name = 'shop.example'): CaaRecord => {
  const r = parseCaa(name, content);
  if (!r) throw new Error(`unreadable: ${content}`);
  return r;
};

describe('parseCaa', () => {
  it('reads the presentation form the API gives as content', () => {
    // RFC 8659 4.1.1: flags, tag, value as a quoted string.
    expect(rec('0 issue "letsencrypt.org"')).toMatchObject({ name: 'shop.example', flags: 0, tag: 'issue', value: 'letsencrypt.org', critical: false, issuer: 'letsencrypt.org', parameters: [], wellFormed: true });
  });

  it('matches tags and issuer domains case-insensitively', () => {
    // RFC 8659 4.1: tags match case-insensitively; RFC 4343: domain names compare case-insensitively.
    expect(rec('0 IssueWild "Pki.GOOG"')).toMatchObject({ tag: 'issuewild', issuer: 'pki.goog' });
  });

  it('reads the parameters after the issuer domain', () => {
    // RFC 8659 4.2 (parameters), RFC 8657 3 (accounturi) and 4 (validationmethods).
    const r = rec('0 issue "letsencrypt.org; accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1 ; validationmethods=dns-01"');
    expect(r.issuer).toBe('letsencrypt.org');
    expect(r.parameters).toEqual([
      { tag: 'accounturi', value: 'https://acme-v02.api.letsencrypt.org/acme/acct/1' },
      { tag: 'validationmethods', value: 'dns-01' },
    ]);
    expect(describeProperty(r)).toBe('letsencrypt.org (accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1, validationmethods=dns-01)');
  });

  it('reads an empty issuer as naming no CA', () => {
    // RFC 8659 4.2: an issue property without an issuer-domain-name requests no issuance.
    const r = rec('0 issue ";"');
    expect(r).toMatchObject({ issuer: '', wellFormed: true });
    expect(describeProperty(r)).toBe('no CA');
  });

  it('reads a value outside the grammar as naming no CA', () => {
    // RFC 8659 4.2: the issuer domain is LDH labels; "lets encrypt.org" is none.
    const r = rec('0 issue "lets encrypt.org"');
    expect(r).toMatchObject({ issuer: '', wellFormed: false });
    expect(describeProperty(r)).toContain('malformed');
  });

  it('sets the critical flag from bit 0 (128)', () => {
    // RFC 8659 4.1: bit 0 is the most significant bit of the flags octet.
    expect(rec('128 tbs "x"').critical).toBe(true);
    expect(rec('1 tbs "x"').critical).toBe(false);
  });

  it('unescapes the quoted value', () => {
    // RFC 1035 5.1: `\X` is X inside a <character-string>.
    expect(rec('0 iodef "mailto:a\\"b@shop.example"').value).toBe('mailto:a"b@shop.example');
  });

  it('does not read what is not CAA presentation form', () => {
    expect(parseCaa('shop.example', 'issue letsencrypt.org')).toBeNull();
    expect(parseCaa('shop.example', '256 issue "letsencrypt.org"')).toBeNull();
    expect(parseCaa('shop.example', '0 issue "letsencrypt.org')).toBeNull();
  });
});

describe('caaOf', () => {
  const served = (content: string | null, data: Record<string, unknown> | null, type = 'CAA') => ({ type, name: 'Shop.Example.', content, data });

  it('reads data {flags, tag, value} when the API sent no content', () => {
    // vendor docs, DNS records: CAA comes with data {flags, tag, value} and may have no content.
    expect(caaOf(served(null, { flags: 0, tag: 'issuewild', value: 'example.com' }))).toMatchObject({ name: 'shop.example', flags: 0, tag: 'issuewild', issuer: 'example.com', critical: false });
    // The value in data is not in presentation form: quotes and backslashes are its own.
    expect(caaOf(served('', { flags: 0, tag: 'iodef', value: 'mailto:a"b\\c@shop.example' }))?.value).toBe('mailto:a"b\\c@shop.example');
  });

  it('reads flags as a number or a string of digits, 128 as critical (RFC 8659 4.1)', () => {
    expect(caaOf(served(null, { flags: '128', tag: 'tbs', value: 'x' }))).toMatchObject({ flags: 128, critical: true, tag: 'tbs' });
    expect(caaOf(served(null, { flags: 128, tag: 'issue', value: 'letsencrypt.org; validationmethods=dns-01' }))).toMatchObject({ critical: true, issuer: 'letsencrypt.org', parameters: [{ tag: 'validationmethods', value: 'dns-01' }] });
  });

  it('prefers the content the API sent', () => {
    expect(caaOf(served('0 issue "letsencrypt.org"', { flags: 0, tag: 'issue', value: 'pki.goog' }))?.issuer).toBe('letsencrypt.org');
  });

  it('reads nothing from incomplete or odd data, or from another type', () => {
    for (const data of [{ tag: 'issue', value: 'x' }, { flags: 'critical', tag: 'issue', value: 'x' }, { flags: 256, tag: 'issue', value: 'x' }, { flags: 0, tag: '', value: 'x' }, { flags: 0, tag: 'issue' }]) {
      expect(caaOf(served(null, data))).toBeNull();
    }
    expect(caaOf(served(null, null))).toBeNull();
    expect(caaOf(served(null, { flags: 0, tag: 'issue', value: 'x' }, 'SRV'))).toBeNull();
  });

  it('shows the record as the API holds it', () => {
    expect(servedForm(served('0 issue "letsencrypt.org"', null))).toBe('"0 issue "letsencrypt.org""');
    expect(servedForm(served(null, { flags: 128, tag: 'tbs', value: 'x' }))).toBe('data {"flags":128,"tag":"tbs","value":"x"}');
  });
});

describe('mayStopIssuance', () => {
  it('is a critical tag beyond issue, issuewild and iodef', () => {
    // RFC 8659 4.1: a CA must not issue when a critical property's tag is unknown to it.
    expect(mayStopIssuance(rec('128 tbs "x"'))).toBe(true);
    // IANA Certification Authority Restriction Properties: auth, path, policy are reserved.
    expect(mayStopIssuance(rec('128 policy "x"'))).toBe(true);
    // RFC 8659 4.1: a CA MUST NOT issue if the set holds a critical property for an "unknown or
    // unsupported" tag. Registered tags beyond RFC 8659's own are not supported by every CA (Let's
    // Encrypt supports issue, issuewild and iodef only), so critical they may stop issuance (these
    // were once taken as known to every CA).
    expect(mayStopIssuance(rec('128 contactemail "dns@shop.example"'))).toBe(true);
    expect(mayStopIssuance(rec('128 contactphone "+1 555 0100"'))).toBe(true);
    expect(mayStopIssuance(rec('128 issuemail "digicert.com"'))).toBe(true);
    expect(mayStopIssuance(rec('128 issuevmc "digicert.com"'))).toBe(true);
    // RFC 8659's own tags are understood by every CA.
    expect(mayStopIssuance(rec('128 issue "letsencrypt.org"'))).toBe(false);
    expect(mayStopIssuance(rec('128 issuewild "letsencrypt.org"'))).toBe(false);
    expect(mayStopIssuance(rec('128 iodef "mailto:sec@shop.example"'))).toBe(false);
    // Not critical: a CA ignores a tag it does not know.
    expect(mayStopIssuance(rec('0 tbs "x"'))).toBe(false);
    expect(mayStopIssuance(rec('0 contactemail "dns@shop.example"'))).toBe(false);
  });
});

describe('caaAllows', () => {
  it('allows every CA when the set has no governing property', () => {
    // RFC 8659 4: only iodef, or only unknown tags, restrict nothing.
    expect(caaAllows([rec('0 iodef "mailto:sec@shop.example"'), rec('0 tbs "x"')], ['digicert.com'], false)).toBe(true);
    // RFC 8659 4.3: issuewild is ignored for a name that is not a wildcard.
    expect(caaAllows([rec('0 issuewild ";"')], ['digicert.com'], false)).toBe(true);
    expect(governingProperties([rec('0 issuewild ";"')], false)).toEqual([]);
  });

  it('lets issuewild govern a wildcard over issue', () => {
    // RFC 8659 4.3: with any issuewild property, the issue properties are ignored for a wildcard.
    const set = [rec('0 issue "digicert.com"'), rec('0 issuewild "letsencrypt.org"')];
    expect(caaAllows(set, ['letsencrypt.org'], true)).toBe(true);
    expect(caaAllows(set, ['letsencrypt.org'], false)).toBe(false);
    expect(caaAllows(set, ['digicert.com'], true)).toBe(false);
    // Without issuewild, issue governs the wildcard too.
    expect(caaAllows([rec('0 issue "digicert.com"')], ['digicert.com'], true)).toBe(true);
  });

  it('adds authorizations up, and an empty issuer authorizes nobody', () => {
    // RFC 8659 4.2: each issue property authorizes the CA it names.
    expect(caaAllows([rec('0 issue ";"')], ['letsencrypt.org'], false)).toBe(false);
    expect(caaAllows([rec('0 issue ";"'), rec('0 issue "letsencrypt.org"')], ['letsencrypt.org'], false)).toBe(true);
  });
});

describe('relevantCaa', () => {
  it('climbs to the closest name with records, no higher than the apex', () => {
    // RFC 8659 3: the relevant record set is the first non-empty one climbing the name tree.
    const byName = new Map([
      ['shop.example', [rec('0 issue "digicert.com"')]],
      ['api.shop.example', [rec('0 issue "pki.goog"', 'api.shop.example')]],
    ]);
    expect(relevantCaa('a.b.shop.example', byName, 'shop.example')[0]!.issuer).toBe('digicert.com');
    expect(relevantCaa('*.api.shop.example', byName, 'shop.example')[0]!.issuer).toBe('pki.goog');
    expect(relevantCaa('shop.example', new Map(), 'shop.example')).toEqual([]);
  });
});
