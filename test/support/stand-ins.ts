import type { InvalidCase, ValidCase } from './rule-tester.js';

/**
 * The documentation ranges these tables write public addresses in (RFC 5737, RFC 3849: examples
 * must not use somebody's real address), named as stand-ins for public ones, as an organisation
 * of examples sets dns-private-address's `standIns`, which the DNS rules that leave non-public
 * addresses to it follow. A case that sets its own options keeps them.
 */
export const STAND_INS = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'];

export function withStandIns(cases: { valid: ValidCase[]; invalid: InvalidCase[] }): { valid: ValidCase[]; invalid: InvalidCase[] } {
  const add = <C extends ValidCase>(c: C): C => ({ ...c, options: { standIns: STAND_INS, ...c.options } });
  return { valid: cases.valid.map(add), invalid: cases.invalid.map(add) };
}
