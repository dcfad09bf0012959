import { describe, expect, it } from 'vitest';
import { dkimKey, isSpf, joinTxt, mailRecords, mxExchange, parseDmarc, parseSpf, parseTagList, sendsMail, spfAll, spfAuthorizesSenders, spfLookups, spfRedirect } from '../../../src/cloudflare/dns/email-records.js';
import type { DnsRecordFields } from '../../../src/cloudflare/dns/record.js';

let seq = 0;
const rec = (type: string, name: string, content: string): DnsRecordFields => ({ id: `r${++seq}`, type, name, content, data: null, proxied: false, ttl: 1 });

describe('joinTxt', () => {
  it('joins quoted strings without adding spaces', () => {
    // RFC 7208 3.3: the character-strings of one record are concatenated without adding spaces.
    expect(joinTxt('"v=spf1 include:_spf.example.net" " -all"')).toBe('v=spf1 include:_spf.example.net -all');
    expect(joinTxt('"v=DKIM1; p=MIGf" "MA0GCSqG"')).toBe('v=DKIM1; p=MIGfMA0GCSqG');
  });

  it('reads one quoted string as the API serves TXT content', () => {
    // vendor API reference, DNS records: TXT content is quoted character strings (RFC 1035).
    expect(joinTxt('"v=spf1 include:amazonses.com ~all"')).toBe('v=spf1 include:amazonses.com ~all');
  });

  it('takes unquoted content as one string, as written', () => {
    // vendor API reference, DNS records: older records carry their content without quotes.
    expect(joinTxt('v=spf1 mx -all')).toBe('v=spf1 mx -all');
    expect(joinTxt('  v=spf1 -all ')).toBe('v=spf1 -all');
  });

  it('undoes escapes inside quoted strings', () => {
    // RFC 1035 5.1: \X is X, \DDD is the octet of that decimal value.
    expect(joinTxt('"a\\"b" "c\\\\d" "\\059e"')).toBe('a"bc\\d;e');
  });
});

describe('SPF', () => {
  it('knows an SPF record by v=spf1 then a space or the end, in any case', () => {
    // RFC 7208 4.5: exactly "v=spf1", terminated by SP or the end; ABNF literals are case-insensitive (RFC 5234).
    expect(isSpf('v=spf1 -all')).toBe(true);
    expect(isSpf('V=SPF1 -all')).toBe(true);
    expect(isSpf('v=spf1')).toBe(true);
    expect(isSpf('v=spf10 -all')).toBe(false);
    expect(isSpf('v=spf1-all')).toBe(false);
    expect(isSpf('google-site-verification=abc')).toBe(false);
  });

  it('reads qualifiers, mechanisms and modifiers', () => {
    // RFC 7208 4.6.1 (terms), 4.6.2 (no qualifier is +), 6 (modifiers: name=value).
    const p = parseSpf('v=spf1 ip4:192.0.2.0/24 a/24 mx:mail.example.com ~include:_spf.example.net -all exp=explain.example.com');
    expect(p.errors).toEqual([]);
    expect(p.terms.map((t) => (t.kind === 'mechanism' ? `${t.qualifier}${t.name}` : `${t.name}=`))).toEqual(['+ip4', '+a', '+mx', '~include', '-all', 'exp=']);
    expect(p.terms[0]).toMatchObject({ value: '192.0.2.0/24' });
    expect(p.terms[1]).toMatchObject({ value: '/24' });
  });

  it('reports what receivers answer permerror for', () => {
    // RFC 7208 4.6 (unknown mechanism), 5.2 (include needs a domain), 5.1 (all takes no value), 6 (redirect at most once).
    expect(parseSpf('v=spf1 foo -all').errors).toEqual(['"foo" is not an SPF mechanism or modifier']);
    expect(parseSpf('v=spf1 include -all').errors).toEqual(['"include": include needs a value after ":"']);
    expect(parseSpf('v=spf1 all:x').errors).toEqual(['"all:x": all takes no value']);
    expect(parseSpf('v=spf1 redirect=a.example redirect=b.example').errors).toEqual(['the redirect modifier is given more than once']);
    // RFC 7208 6: unknown modifiers are ignored, not errors.
    expect(parseSpf('v=spf1 mx custom=x -all').errors).toEqual([]);
  });

  it('finds the all that ends evaluation and the redirect that applies', () => {
    // RFC 7208 5.1: mechanisms after all are never tested; 6.1: redirect is ignored when there is an all.
    expect(spfAll(parseSpf('v=spf1 ?all -all'))?.qualifier).toBe('?');
    expect(spfAll(parseSpf('v=spf1 mx'))).toBeNull();
    expect(spfRedirect(parseSpf('v=spf1 redirect=_spf.example.net'))).toBe('_spf.example.net');
    expect(spfRedirect(parseSpf('v=spf1 -all redirect=_spf.example.net'))).toBeNull();
  });

  it('counts the DNS-querying terms of the record, and says which bring more', () => {
    // RFC 7208 4.6.4: include, a, mx, ptr, exists and redirect count; ip4, ip6, all and exp do not.
    const l = spfLookups(parseSpf('v=spf1 a mx ptr exists:%{i}.x.example include:a.example ip4:192.0.2.1 ip6:2001:db8::1 redirect=b.example'));
    expect(l).toEqual({ count: 6, delegations: ['include:a.example', 'redirect=b.example'] });
    // RFC 7208 5.1 and 6.1: terms after all are never evaluated, and redirect is ignored beside all.
    expect(spfLookups(parseSpf('v=spf1 mx -all include:late.example redirect=c.example'))).toEqual({ count: 1, delegations: [] });
  });

  it('tells records that authorize senders from those that authorize none', () => {
    // UK NCSC, protect domains that do not send email: "v=spf1 -all" authorizes no server.
    expect(spfAuthorizesSenders(parseSpf('v=spf1 -all'))).toBe(false);
    expect(spfAuthorizesSenders(parseSpf('v=spf1 ~all'))).toBe(false);
    expect(spfAuthorizesSenders(parseSpf('v=spf1'))).toBe(false);
    expect(spfAuthorizesSenders(parseSpf('v=spf1 -mx -all'))).toBe(false);
    // RFC 7208 4.6.2: a mechanism without a qualifier passes; +all passes every host.
    expect(spfAuthorizesSenders(parseSpf('v=spf1 mx -all'))).toBe(true);
    expect(spfAuthorizesSenders(parseSpf('v=spf1 +all'))).toBe(true);
    expect(spfAuthorizesSenders(parseSpf('v=spf1 redirect=_spf.example.net'))).toBe(true);
  });
});

describe('tag lists and DMARC', () => {
  it('splits tag=value pieces on ; and trims white space', () => {
    // RFC 6376 3.2: tag-list, white space around names and values is ignored; a trailing ; is allowed.
    expect(parseTagList(' v = DMARC1 ;p=reject;; rua=mailto:a@example.com ; ')).toEqual({
      tags: [
        { name: 'v', value: 'DMARC1' },
        { name: 'p', value: 'reject' },
        { name: 'rua', value: 'mailto:a@example.com' },
      ],
      malformed: [],
    });
    expect(parseTagList('v=DKIM1; junk').malformed).toEqual(['junk']);
  });

  it('reads a DMARC record', () => {
    // RFC 7489 6.3: v first and exactly DMARC1; p, sp and pct (default 100); 6.4: tag names case-insensitive.
    expect(parseDmarc('v=DMARC1; P=Reject; sp=none; pct=50; rua=mailto:d@example.com')).toMatchObject({
      versionFirst: true,
      versionProblem: null,
      p: 'reject',
      sp: 'none',
      pct: 50,
      hasRua: true,
      duplicates: [],
    });
    expect(parseDmarc('v=DMARC1; p=none')).toMatchObject({ pct: 100, sp: null, hasRua: false });
  });

  it('says why a record naming DMARC1 is discarded', () => {
    // RFC 7489 6.3: v MUST be the first tag; its value must match precisely (ABNF %x44 %x4d ... : case-sensitive).
    expect(parseDmarc('p=reject; v=DMARC1')).toMatchObject({ versionFirst: false, namesDmarc: true, versionProblem: 'v=DMARC1 is not the first tag' });
    expect(parseDmarc('v=dmarc1; p=reject')).toMatchObject({ versionFirst: false, versionProblem: 'v=dmarc1 is not exactly DMARC1 (the value is case-sensitive)' });
    expect(parseDmarc('some-verification=abc')).toMatchObject({ versionFirst: false, namesDmarc: false, versionProblem: null });
  });

  it('marks unknown policies, bad pct and repeated tags', () => {
    // RFC 7489 6.3 (p and sp values, pct 0 to 100) and RFC 6376 3.2 (a repeated tag voids the list).
    expect(parseDmarc('v=DMARC1; p=block; sp=maybe; pct=150')).toMatchObject({ p: null, pRaw: 'block', sp: 'invalid', pct: null });
    expect(parseDmarc('v=DMARC1; rua=mailto:a@example.com')).toMatchObject({ p: null, pRaw: null, hasRua: true });
    expect(parseDmarc('v=DMARC1; p=none; P=reject').duplicates).toEqual(['p']);
  });
});

describe('DKIM keys', () => {
  it('reads keys, revoked keys and records that are no keys', () => {
    // RFC 6376 3.6.1: p is required, empty p is a revoked key, v if present is first and DKIM1.
    // A 1024-bit RSA key in a SubjectPublicKeyInfo, generated for this test (RFC 6376 3.6.1, erratum 3017).
    const rsa = 'MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDLTg9kXc4SHCnf5HLJUPLoui5JA0k2zl88QxkjHDbykvfnnRcbd9ngwkpZYMn66/Qa4k/0jwnLkIWXl/BJyNg+FO4xuSOiKGIXpF3bZYAGywolE+NvUO+mQa/fgqqPUqa8SlIkuOOMnZxuxnRCRVt0Wf8l0NTeOi/UvAvuRT2eNQIDAQAB';
    expect(dkimKey(`v=DKIM1; k=rsa; p=${rsa}`)).toEqual({ state: 'key' });
    expect(dkimKey(`k=rsa; p=${rsa}`)).toEqual({ state: 'key' });
    // RFC 6376 6.1.2: a key that does not decode or parse verifies nothing; the head of a key is not a key.
    expect(dkimKey('v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3')).toEqual({ state: 'invalid', reason: 'p= decodes, but not to an RSA public key (RFC 6376 3.6.1)' });
    expect(dkimKey('v=DKIM1; p=abcde')).toEqual({ state: 'invalid', reason: 'p= is not valid base64' });
    expect(dkimKey('v=DKIM1; p=ab*c')).toEqual({ state: 'invalid', reason: 'p= is not valid base64' });
    expect(dkimKey('v=DKIM1; p=abc==')).toEqual({ state: 'invalid', reason: 'p= is not valid base64' });
    // RFC 6376 2.4: the padding of a base64string is optional; a key without it still decodes.
    // (A bare 1024-bit RSAPublicKey, RFC 6376 3.6.1, whose base64 ends in one "=".)
    const pkcs1 = 'MIGJAoGBAMtOD2RdzhIcKd/kcslQ8ui6LkkDSTbOXzxDGSMcNvKS9+edFxt32eDCSllgyfrr9BriT/SPCcuQhZeX8EnI2D4U7jG5I6IoYhekXdtlgAbLCiUT429Q76ZBr9+Cqo9SprxKUiS444ydnG7GdEJFW3RZ/yXQ1N46L9S8C+5FPZ41AgMBAAE=';
    expect(dkimKey(`v=DKIM1; p=${pkcs1}`)).toEqual({ state: 'key' });
    expect(dkimKey(`v=DKIM1; p=${pkcs1.replace(/=+$/, '')}`)).toEqual({ state: 'key' });
    // RFC 6376 3.6.1: white space inside p= only, and an empty p= is revoked.
    expect(dkimKey('v=DKIM1; p= ')).toEqual({ state: 'revoked' });
    expect(dkimKey('v=DKIM1; p=')).toEqual({ state: 'revoked' });
    expect(dkimKey('v=DKIM1; k=rsa')).toEqual({ state: 'invalid', reason: 'it has no p= tag (the public key)' });
    expect(dkimKey('k=rsa; v=DKIM1; p=abc')).toEqual({ state: 'invalid', reason: 'v=DKIM1 is not the first tag' });
    expect(dkimKey('v=DKIM2; p=abc')).toEqual({ state: 'invalid', reason: 'v=DKIM2 is not DKIM1' });
    // The DomainKeys policy record (o=~) and other text hold no key.
    expect(dkimKey('o=~')).toEqual({ state: 'none' });
  });
});

describe('mailRecords', () => {
  it('collects the apex SPF, MX, DMARC and DKIM records in one pass', () => {
    // RFC 7208 4.5 (SPF at the domain), RFC 7489 6.1 (_dmarc), RFC 6376 3.6.2.1 (<selector>._domainkey), RFC 7505 (null MX).
    const records = [
      rec('A', 'shop.example', '192.0.2.1'),
      rec('TXT', 'Shop.Example.', '"v=spf1 mx -all"'),
      rec('TXT', 'shop.example', '"google-site-verification=abc"'),
      rec('TXT', 'www.shop.example', '"v=spf1 -all"'),
      rec('MX', 'shop.example', 'mx1.mail.example'),
      rec('MX', 'sub.shop.example', 'mx2.mail.example'),
      rec('TXT', '_dmarc.shop.example', '"v=DMARC1; p=none"'),
      rec('TXT', 's1._domainkey.shop.example', '"v=DKIM1; p=abc"'),
      rec('CNAME', 'selector1._domainkey.shop.example', 'selector1-shop-example._domainkey.shop.onmicrosoft.com'),
      rec('TXT', '_domainkey.shop.example', '"o=~"'),
    ];
    const m = mailRecords('shop.example', records);
    expect(m.spf.map((s) => s.text)).toEqual(['v=spf1 mx -all']);
    expect(m.mx.map((r) => r.content)).toEqual(['mx1.mail.example']);
    expect(m.nullMx).toEqual([]);
    expect(m.dmarc.map((s) => s.text)).toEqual(['v=DMARC1; p=none']);
    expect(m.dkim.map((d) => [d.selector, d.text])).toEqual([['s1', 'v=DKIM1; p=abc']]);
    expect(m.dkimCnames.map((d) => [d.selector, d.target])).toEqual([['selector1', 'selector1-shop-example._domainkey.shop.onmicrosoft.com']]);
    expect(sendsMail(m)).toBe(true);
    // Kept with the records list: the three rules of a zone share one pass.
    expect(mailRecords('shop.example', records)).toBe(m);
  });

  it('reads the null MX, as the API gives it and written zone-file style', () => {
    // RFC 7505 3: the null MX has the exchange "." (preference 0, kept apart in the API's priority field).
    expect(mxExchange('.')).toBe('.');
    expect(mxExchange('0 .')).toBe('.');
    expect(mxExchange('MX1.Mail.Example.')).toBe('mx1.mail.example');
    const m = mailRecords('quiet.example', [rec('MX', 'quiet.example', '.'), rec('TXT', 'quiet.example', '"v=spf1 -all"')]);
    expect(m.nullMx).toHaveLength(1);
    expect(sendsMail(m)).toBe(false);
  });

  it('takes an SPF record naming senders as sending mail, without MX', () => {
    // RFC 7208 2.2: the SPF record is the domain's own list of hosts authorized to send as it.
    expect(sendsMail(mailRecords('send.example', [rec('TXT', 'send.example', '"v=spf1 include:amazonses.com -all"')]))).toBe(true);
    expect(sendsMail(mailRecords('quiet.example', []))).toBe(false);
  });
});
