/** `zonewarden/rules/testing`: the table tester and snapshot builder of the built-in rules' tests (runs under vitest). */
export { runRule, testRule } from './rule-tester.js';
export type { ExpectedFinding, InvalidCase, ValidCase } from './rule-tester.js';
export { days, dnsRecord, filterItem, firewall, FIXTURE_NOW, locked, NOT_OFFERED, snapshotOf, zoneIdOf } from './fixture.js';
export type { FixtureSpec, FixtureZone, Item, RuleSpec, Unread } from './fixture.js';
