import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'client-side-security-off',
    title: 'A zone that serves pages watches the scripts its pages load in browsers',
    description:
      "Client-side security (formerly Page Shield) inventories the scripts and connections visitors' browsers load from the zone's pages, through a report-only Content Security Policy the edge adds, and flags new, changed and malicious ones: the supply-chain attacks (Magecart-style skimmers) that steal card numbers and credentials in the browser, where no server-side control sees them. While it is off the zone has no inventory of its page scripts, which PCI DSS 4.0 requirement 6.4.3 asks for on payment pages (the vendor's security insights tie this check to it). The script monitor is offered on every plan (connection and cookie monitoring, malicious code detection and policies come with Business, Enterprise and the add-on), so the rule judges every plan. Only a zone that serves pages through the edge is judged: active, not paused, with a proxied A, AAAA or CNAME record; other zones pass as not applicable. Medium: nothing is exposed by the switch itself, but an attack it would reveal goes unseen.",
    severity: 'medium',
    category: 'zone',
    scope: 'zone',
    resource: 'zone',
    reads: ['page_shield'],
    messages: {
      off: "client-side security (Page Shield) is off while the zone serves pages through the edge ({{records}}): the scripts visitors' browsers load are not inventoried, and a new, changed or malicious script goes unnoticed",
    },
    remediation:
      'Turn it on: `PUT /zones/{zone_id}/page_shield` with `{"enabled": true}` (dashboard: Security > Client-side security, or Security > Settings on newer dashboards), then add notification policies for its alerts (client-side-script-alert-missing). A zone that serves no HTML (an API host) can waive the finding.',
    references: [
      'vendor API reference: Page Shield settings (GET/PUT /zones/{zone_id}/page_shield: enabled, use_cloudflare_reporting_endpoint, use_connection_url_path, updated_at)',
      'vendor docs: Page Shield (client-side security): how it works (a Content-Security-Policy-Report-Only header the edge adds to HTML responses), script monitor, connection and cookie monitor',
      'vendor docs: Page Shield, PCI DSS compliance (requirements 6.4.3 and 11.6.1)',
      'PCI DSS v4.0, requirement 6.4.3 (all payment page scripts executed in the browser are authorized, integrity-assured and inventoried)',
      "vendor docs: proxy status (DNS-only records bypass the edge, which adds nothing to their pages)",
    ],
  },
  defaultOptions: {},
  check(ctx) {
    const read = ctx.zone.pageShield();
    if (!read.known) return ctx.unknown(ctx.zone.resource, read.reason);
    if (!read.value || read.value.enabled === null) return ctx.unknown(ctx.zone.resource, 'the client-side security settings answered without saying whether it is enabled');
    if (read.value.enabled) return ctx.pass();
    const serves = ctx.zone.servesPages();
    if (!serves.known) return ctx.unknown(ctx.zone.resource, serves.reason);
    // Not applicable: the edge adds its reporting policy to the pages it serves only.
    if (!serves.value) return ctx.pass();
    const records = ctx.zone.proxiedWebRecords();
    const names = records.known ? [...new Set(records.items.map((r) => r.name ?? r.id))] : [];
    const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? `, and ${names.length - 3} more` : '');
    ctx.fail(ctx.zone.resource, 'off', { records: shown });
  },
});
