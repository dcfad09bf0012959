/**
 * `zonewarden/rules/testing`: the table tester and snapshot builder the built-in rules are tested
 * with. It runs under vitest, which the project that imports it installs.
 */
export { runRule, testRule } from './rule-tester.js';
export type { ExpectedFinding, InvalidCase, ValidCase } from './rule-tester.js';
export { days, dnsRecord, filterItem, firewall, FIXTURE_NOW, locked, NOT_OFFERED, snapshotOf, zoneIdOf } from './fixture.js';
export type { FixtureSpec, FixtureZone, Item, RuleSpec, Unread } from './fixture.js';
