import { describe, expect, it } from 'vitest';
import dnsPrivateAddress from '../../rules/dns-private-address.js';
import invitePending from '../../rules/invite-pending.js';
import { evaluate } from '../../src/policy/engine.js';
import { activeRules, loadCatalogue, RuleConfigError, type RuleSettings } from '../../src/policy/registry.js';
import { snapshotOf, type Item } from '../support/snapshot-fixture.js';
import { thrownBy } from '../support/errors.js';

/**
 * Per-zone rule settings (`rules.<id>.overrides` in the config file): enable, disable or re-grade
 * a rule for zones matching a glob or in an account, later overrides winning, as ESLint's
 * `overrides` do for files.
 */

let seq = 0;
const privateRecord = (zone: string): Item => ({ id: `rec${String(++seq).padStart(29, '0')}`, type: 'A', name: `db.${zone}`, content: '10.0.0.5', proxied: false, ttl: 1 });
const ACCOUNTS = [
  { id: 'acc0000000000000000000000000000a', name: 'Acme Bank Group', type: 'standard' },
  { id: 'acc0000000000000000000000000000b', name: 'Northwind', type: 'standard' },
];
const zone = (name: string, account = ACCOUNTS[0]!.id) => ({ name, account, dnsRecords: [privateRecord(name)] });

function audit(settings: Record<string, RuleSettings>) {
  const { reader, db } = snapshotOf({
    accounts: ACCOUNTS,
    invites: [{ id: 'inv00000000000000000000000000001', organization_name: 'Other', status: 'pending', roles: ['Administrator'], expires_on: '2026-12-01T00:00:00Z', invited_on: '2026-10-01T00:00:00Z' }],
    zones: [zone('shop.example'), zone('a.lab.example'), zone('b.lab.example'), zone('north.example', ACCOUNTS[1]!.id)],
  });
  try {
    const result = evaluate(reader, activeRules(loadCatalogue([dnsPrivateAddress, invitePending]), settings));
    const failing = (rule: string) => Object.fromEntries(result.findings.filter((f) => f.rule === rule && f.status === 'fail').map((f) => [f.zone?.name ?? '-', f.severity]));
    return { result, failing };
  } finally {
    db.close();
  }
}

describe('per-zone rule settings', () => {
  it('disables a rule for zones matching a glob, and only there (no verdict, not a pass)', () => {
    const { result, failing } = audit({ 'dns-private-address': { overrides: [{ zones: ['*.lab.example'], enabled: false }] } });
    expect(failing('dns-private-address')).toEqual({ 'shop.example': 'medium', 'north.example': 'medium' });
    expect(result.passes['dns-private-address']).toBe(0);
    expect(result.errors).toEqual([]);
  });

  it('re-grades by account (name or id), a later override winning over an earlier one', () => {
    const { failing } = audit({
      'dns-private-address': {
        severity: 'low',
        overrides: [
          { accounts: ['Acme Bank Group'], severity: 'critical' },
          { zones: ['a.lab.*'], accounts: [ACCOUNTS[0]!.id], severity: 'info' },
        ],
      },
    });
    expect(failing('dns-private-address')).toEqual({ 'shop.example': 'critical', 'a.lab.example': 'info', 'b.lab.example': 'critical', 'north.example': 'low' });
  });

  it('enables a rule that is off for every other zone', () => {
    const { result, failing } = audit({ 'dns-private-address': { enabled: false, overrides: [{ zones: ['shop.example'], enabled: true }] } });
    expect(failing('dns-private-address')).toEqual({ 'shop.example': 'medium' });
    expect(result.rules.map((r) => r.rule.meta.id)).toContain('dns-private-address');
  });

  it('leaves an organisation rule whose findings name no zone to its own setting', () => {
    const { result } = audit({ 'invite-pending': { overrides: [{ zones: ['*'], enabled: false }] } });
    expect(result.findings.filter((f) => f.rule === 'invite-pending' && f.status === 'fail')).toHaveLength(1);
    const off = audit({ 'invite-pending': { enabled: false, overrides: [{ zones: ['shop.example'], enabled: true }] } });
    // Enabled for a zone only, it runs; its finding about no zone stays off, and that is no error.
    expect(off.result.findings.filter((f) => f.rule === 'invite-pending')).toEqual([]);
    expect(off.result.errors).toEqual([]);
  });

  it.each([
    [{ overrides: { zones: ['a'] } }, 'rules.dns-private-address.overrides: expected a list of'],
    [{ overrides: [{ enabled: false }] }, 'rules.dns-private-address.overrides[0]: say which zones it is for, with "zones" (names or globs) or "accounts"'],
    [{ overrides: [{ zones: [], enabled: false }] }, 'rules.dns-private-address.overrides[0].zones: expected a non-empty list of names or globs'],
    [{ overrides: [{ zones: ['a'] }] }, 'rules.dns-private-address.overrides[0]: set "enabled" or "severity" (or both)'],
    [{ overrides: [{ zones: ['a'], severity: 'urgent' }] }, 'rules.dns-private-address.overrides[0].severity: expected one of critical, high, medium, low, info'],
    [{ overrides: [{ zones: ['a'], enabled: 'no' }] }, 'rules.dns-private-address.overrides[0].enabled: expected true or false'],
    [{ overrides: [{ zone: 'a', enabled: false }] }, 'rules.dns-private-address.overrides[0]: unknown setting "zone"; use zones, accounts, enabled, severity'],
  ])('refuses %j with a line naming the setting', (settings, message) => {
    const error = thrownBy(() => activeRules(loadCatalogue([dnsPrivateAddress]), { 'dns-private-address': settings as RuleSettings }, 'config file c.json'), RuleConfigError);
    expect(error.message).toContain(`config file c.json: ${message}`);
  });
});
