import { BlockList, isIP } from 'node:net';
import { defineRule } from 'zonewarden/rules';

/** The ranges as a BlockList, which matches IPv4 and IPv6 addresses against CIDR prefixes. */
function blockList(ranges) {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(address, Number(prefix ?? (family === 'ipv6' ? 128 : 32)), family);
  }
  return list;
}

export default defineRule({
  meta: {
    id: 'acme-unproxied-in-range',
    title: 'No unproxied record points into the origin ranges',
    description:
      'Our origins live in the ranges of the ranges option and accept traffic from the proxy only; a record that is not proxied and points into them publishes an origin address to anyone who resolves it.',
    severity: 'high',
    category: 'dns',
    scope: 'zone',
    resource: 'dns_record',
    messages: {
      inRange: '{{name}} ({{type}} {{content}}) is not proxied and points into the origin range {{range}}',
    },
    remediation: 'Proxy the record, or point it at an address outside the origin ranges.',
    references: ['ACME network policy NET-7: origins are reached through the proxy only'],
    optionHelp: { ranges: 'the origin ranges, as CIDR prefixes (IPv4 or IPv6)' },
  },
  defaultOptions: { ranges: ['203.0.113.0/24'] },
  check(ctx) {
    const records = ctx.zone.dnsRecords();
    // Not read (denied, failed): neither pass nor fail, and the report says why.
    if (!records.known) return ctx.unknown(ctx.zone.resource, records.reason);
    const ranges = ctx.options.ranges.map((range) => ({ range, list: blockList([range]) }));
    let failed = false;
    for (const r of records.items) {
      if (r.proxied !== false || (r.type !== 'A' && r.type !== 'AAAA') || r.content === null) continue;
      const family = r.type === 'A' ? 'ipv4' : 'ipv6';
      const hit = ranges.find(({ list }) => list.check(r.content, family));
      if (!hit) continue;
      ctx.fail({ type: 'dns_record', id: r.id, name: r.name }, 'inRange', { name: r.name ?? r.id, type: r.type, content: r.content, range: hit.range });
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
