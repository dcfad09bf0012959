import { describe, expect, it } from 'vitest';
import { originAnsweredAs, publicDnsIsHere } from '../../../src/cloudflare/zones/zone-setup.js';

describe('originAnsweredAs', () => {
  it('names why proxied records are answered with their origin', () => {
    // vendor docs: pausing a zone ("Pause Cloudflare"): a paused zone's DNS answers proxied records with the origin's addresses.
    expect(originAnsweredAs('active', true)).toBe('paused');
    expect(originAnsweredAs(null, true)).toBe('paused');
    // vendor docs: zone statuses: a pending or initializing zone is not yet served by the proxy.
    expect(originAnsweredAs('pending', false)).toBe('pending');
    expect(originAnsweredAs('initializing', null)).toBe('initializing');
  });

  it('is null where the proxy serves the records, or nothing is answered at all', () => {
    expect(originAnsweredAs('active', false)).toBeNull();
    expect(originAnsweredAs('active', null)).toBeNull();
    // A moved or deleted zone is answered for by nobody: its records expose no origin.
    expect(originAnsweredAs('moved', true)).toBeNull();
    expect(originAnsweredAs('deleted', true)).toBeNull();
  });
});

describe('publicDnsIsHere', () => {
  it('holds for a full setup, and for a zone that does not say', () => {
    expect(publicDnsIsHere('full')).toBe(true);
    expect(publicDnsIsHere(null)).toBe(true);
  });

  it('does not hold where public resolvers are answered by other DNS or not at all', () => {
    // vendor docs: partial (CNAME) setup, secondary DNS, Internal DNS.
    expect(['partial', 'secondary', 'internal'].map(publicDnsIsHere)).toEqual([false, false, false]);
  });
});
