import { describe, expect, it } from 'vitest';
import { RULES } from '../../rules/index.js';
import { VENDOR_INSIGHT_TYPES, type VendorInsightType } from '../../src/cloudflare/security-insights/insight-types.js';
import { expectGeneratedRegion } from '../support/generated-docs.js';

/**
 * docs/from-vendor-insights.md's mapping is generated from the insight-type module
 * (src/cloudflare/security-insights/insight-types.ts): `npm run docs` rewrites it, and this test
 * fails when the page is out of date. A rule links to its row of docs/rules.md once it is in the
 * catalogue; a rule another branch has not merged yet is named without a link until then.
 */

const catalogue = new Set(RULES.map((r) => r.meta.id));
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function ruleLink(id: string): string {
  return catalogue.has(id) ? `[\`${id}\`](rules.md#${id})` : `\`${id}\``;
}

function identifier(e: VendorInsightType): string {
  if (e.issueClass === null) return 'not published';
  const names = [e.issueClass, ...e.aliases].map((id) => `\`${id}\``).join(', ');
  return e.identifier === 'inferred' ? `${names} (inferred)` : names;
}

function row(e: VendorInsightType, first: string): string {
  const rules = e.rules.map(ruleLink).join(', ') || 'none';
  const coverage = e.inScope ? e.coverage : 'out of scope';
  const note = e.reason ?? e.differs ?? '';
  return `| ${cell(first)} | ${identifier(e)} | ${rules} | ${coverage} | ${cell(note)} |`;
}

const count = (list: readonly VendorInsightType[], coverage: VendorInsightType['coverage']) => list.filter((e) => e.inScope && e.coverage === coverage).length;

function summary(list: readonly VendorInsightType[], what: string): string {
  const inScope = list.filter((e) => e.inScope).length;
  return `${what}: ${list.length}, of which ${inScope} are within zonewarden's scope (covered fully ${count(list, 'full')}, partly ${count(list, 'partial')}, not ${count(list, 'none')}) and ${list.length - inScope} outside it.`;
}

function vendorInsightsMarkdown(): string {
  const documented = VENDOR_INSIGHT_TYPES.filter((e) => e.documented);
  const others = VENDOR_INSIGHT_TYPES.filter((e) => !e.documented);
  const header = (first: string) => [`| ${first} | \`issue_class\` | zonewarden rules | coverage | why not fully, or where zonewarden differs |`, '|---|---|---|---|---|'];
  return [
    summary(documented, 'Documented insight types'),
    '',
    ...header('Insight (dashboard name)'),
    ...documented.map((e) => row(e, e.displayName!)),
    '',
    summary(others, 'Identifiers the API uses for insights the list does not name'),
    '',
    ...header('What it flags'),
    ...others.map((e) => row(e, e.flags.charAt(0).toUpperCase() + e.flags.slice(1))),
    '',
  ].join('\n');
}

describe('the page for people coming from the vendor scanner (docs/from-vendor-insights.md)', () => {
  const path = new URL('../../docs/from-vendor-insights.md', import.meta.url);
  const generated = vendorInsightsMarkdown().trim();

  it('holds the mapping generated from the insight-type module (npm run docs rewrites it)', () => {
    expectGeneratedRegion(path, ['<!-- vendor-insights:start -->', '<!-- vendor-insights:end -->'], generated, 'docs/from-vendor-insights.md');
  });

  it('has a row for every insight type, and links every rule that is in the catalogue to its row of docs/rules.md', () => {
    const rows = generated.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Insight') && !line.startsWith('| What'));
    expect(rows).toHaveLength(VENDOR_INSIGHT_TYPES.length);
    const linked = [...generated.matchAll(/\]\(rules\.md#([a-z0-9-]+)\)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(0);
    for (const id of linked) expect(catalogue.has(id), id).toBe(true);
    for (const id of new Set(VENDOR_INSIGHT_TYPES.flatMap((e) => e.rules))) if (catalogue.has(id)) expect(linked).toContain(id);
  });

  it('says why an insight is not judged, in its row', () => {
    // vendor docs: Security Insights (Dangling A Records); zonewarden never probes networks.
    const dangling = generated.split('\n').find((line) => line.startsWith('| Dangling A Records |'));
    expect(dangling).toContain('| none |');
    expect(dangling).toContain('zonewarden never probes networks');
    const rdp = generated.split('\n').find((line) => line.startsWith('| Exposed RDP Servers |'));
    expect(rdp).toContain('| out of scope |');
  });
});
