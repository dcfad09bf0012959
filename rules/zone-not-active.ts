import { defineRule } from '../src/policy/rule.js';

export default defineRule({
  meta: {
    id: 'zone-not-active',
    title: 'The zone is active and not paused',
    description:
      'A paused zone sends traffic straight to the origin, bypassing every firewall rule, managed rule and certificate; a zone that is not active (pending name servers, moved) is not protected at all.',
    severity: 'medium',
    category: 'zone',
    scope: 'zone',
    resource: 'zone',
    messages: {
      paused: 'the zone is paused: traffic bypasses its security settings and goes straight to the origin',
      notActive: 'the zone is {{status}}, not active: it does not serve or protect traffic',
    },
    remediation: 'Unpause the zone, or finish its activation (point the registrar at the assigned name servers); delete zones that are no longer used.',
    references: ['API spec: Resources and their fields (zone status)'],
  },
  defaultOptions: {},
  check(ctx) {
    const z = ctx.zone.zone;
    if (z.status !== null && z.status !== 'active') return ctx.fail(ctx.zone.resource, 'notActive', { status: z.status });
    if (z.paused === true) return ctx.fail(ctx.zone.resource, 'paused');
    if (z.status === null || z.paused === null) return ctx.unknown(ctx.zone.resource, 'the zone record has no status or paused field');
    ctx.pass();
  },
});
