import { CUSTOM_RULE_ACTIONS, SKIP_CURRENT, SKIP_PHASES, type PositionRequest } from '../../actions/custom-rule-plan.js';
import { BYPASS_PRODUCTS } from '../../actions/firewall-entitlements.js';
import { FIREWALL_ACTIONS } from '../../actions/firewall-plan.js';
import { resolveZone } from '../../actions/zones.js';
import { loadRules, rulesFor } from '../../policy/catalogue.js';
import { UsageError } from '../../common/errors.js';
import { printable } from '../../common/printable.js';
import { defineCommand } from '../command.js';
import { commonOptions, configFrom } from '../common.js';
import { openWriteSession } from '../write-session.js';
import { createCustom } from './firewall-custom.js';
import { createLegacyRule } from './firewall-legacy.js';

/** The plan quotas the audit uses: a quota rule's options, as configured (custom-rules-quota, or firewall-rule-quota for --legacy). */
function quotasFrom(config: Parameters<typeof rulesFor>[0], ruleId: string): Readonly<Record<string, number>> {
  const rule = rulesFor(config).find((r) => r.rule.meta.id === ruleId);
  return (rule?.options['quotas'] as Record<string, number> | undefined) ?? {};
}

/** `--position first|last|before:RULE|after:RULE`. */
function positionOf(value: string | undefined): PositionRequest | undefined {
  if (value === undefined) return undefined;
  if (value === 'first' || value === 'last') return { kind: value };
  const match = /^(before|after):(.+)$/.exec(value);
  if (!match) throw new UsageError(`--position ${value} is not a position; use first, last, before:RULE or after:RULE (RULE: a custom rule's id or ref)`);
  return { kind: match[1] as 'before' | 'after', rule: match[2]!.trim() };
}

/** A list option's values, comma-separated or repeated. */
const values = (list: readonly string[]) => list.flatMap((p) => p.split(',')).map((p) => p.trim()).filter((p) => p !== '');

const LEGACY_ONLY = ['emergency', 'priority', 'products'] as const;
const CUSTOM_ONLY = ['position', 'skip', 'disabled'] as const;

export const firewallCommand = defineCommand({
  name: 'firewall',
  summary: 'create a WAF custom rule through the rulesets API (--legacy: a filter and a firewall rule); dry run unless --yes',
  description: `
'zonewarden firewall create' writes a WAF custom rule (phase http_request_firewall_custom), the way
today's API takes rules: added to the zone's custom rules entry point (last, or where --position
says), or, when the zone has none yet, the entry point created with the rule (never replacing one
someone created meanwhile: the rule is then checked again and added to theirs). The rule carries a
ref derived from the zone, expression, action and what it skips: after a failure that may have
passed (a server error, a lost answer), the entry point is read back and the rule looked for by
that ref before anything is written again, so it is never written twice.

Before writing it checks that the expression is at most 4,096 characters, that the zone has room
under its plan's custom rules quota (the quotas of the custom-rules-quota rule), that the plan
allows what the rule uses (the log action: Enterprise only; regular expressions, matches or ~:
Business and Enterprise; skip: needs --skip), and that no enabled rule already runs the same
expression with the same action (then nothing is written). A disabled rule that would do the same
never counts: it is named, and an enabled rule is created.

--legacy writes through the filters and firewall rules interfaces instead (the specification's
two calls: the filter, then the rule that references it; --emergency: one call with the filter
inline), for an API that still takes them. The vendor retired firewall rules on 2025-06-15 (they
are custom rules now) and today's API refuses those writes: the error says so. With --legacy the
quota is the firewall-rule-quota rule's, an active filter with the same expression is reused, and
a filter left by a refused rule is deleted again.

Without --yes nothing is written. Every write is recorded in the database's audit log (zonewarden
log), and the zone is rescanned afterwards.`,
  args: [{ name: 'action', help: 'create' }],
  options: {
    zone: { type: 'string', value: 'NAME|ID', help: 'the zone (required)' },
    expression: { type: 'string', value: 'E', help: 'the rule expression (required), at most 4,096 characters' },
    action: {
      type: 'string',
      value: 'A',
      help: `${CUSTOM_RULE_ACTIONS.join(', ')} (required); with --legacy: ${FIREWALL_ACTIONS.join(', ')}`,
    },
    description: { type: 'string', value: 'D', help: 'a description of the rule' },
    skip: {
      type: 'list',
      value: 'S',
      help: `for --action skip (required there): what it skips, comma-separated: ${SKIP_CURRENT} (the remaining custom rules), phases ${SKIP_PHASES.join(', ')}, products ${BYPASS_PRODUCTS.join(', ')}`,
    },
    position: { type: 'string', value: 'P', help: 'where the rule goes among the custom rules: first, last (the default), before:RULE or after:RULE (a rule id or ref)' },
    disabled: { type: 'boolean', help: 'create the rule disabled (it is written but does not run)' },
    legacy: { type: 'boolean', help: "write a filter and a firewall rule (the specification's two calls) instead: for an API that still takes them" },
    products: { type: 'list', value: 'P', help: 'with --legacy, for --action bypass (required there): what it skips, zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit or waf; comma-separated' },
    priority: { type: 'integer', min: 0, max: 2_147_483_647, value: 'N', help: 'with --legacy: the firewall rule priority (lower runs first)' },
    emergency: { type: 'boolean', help: 'with --legacy: one call with the filter inline (the spec reserves it for emergencies)' },
    yes: { type: 'boolean', help: 'do it: without it nothing is written' },
    ...commonOptions('baseUrl', 'db', 'config', 'concurrency', 'budget', 'budgetWindow', 'perSecond', 'timeout', 'retries', 'retryWait', 'quiet', 'verbose'),
  },
  examples: [
    "zonewarden firewall create --zone example.com --expression 'ip.src in {192.0.2.0/24}' --action block --description 'abuse range'",
    "zonewarden firewall create --zone example.com --expression 'http.request.uri.path eq \"/xmlrpc.php\"' --action managed_challenge --position first --yes",
    "zonewarden firewall create --zone example.com --expression 'ip.src eq 192.0.2.10' --action skip --skip http_request_firewall_managed,rateLimit --description 'health checker' --yes",
    "zonewarden firewall create --legacy --zone example.com --expression 'ip.src eq 192.0.2.10' --action bypass --products waf --yes",
  ],
  async run(o, io, args) {
    if (args[0] !== 'create') throw new UsageError(`firewall: unknown action ${args[0] ?? ''}; the action is create, e.g. zonewarden firewall create --zone example.com ...`);
    for (const required of ['zone', 'expression', 'action'] as const) {
      if (o[required] === undefined) throw new UsageError(`--${required} is required; see 'zonewarden firewall --help'`);
    }
    const given = (name: string) => {
      const v = (o as Record<string, unknown>)[name];
      return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false;
    };
    const stray = o.legacy ? CUSTOM_ONLY.find(given) : LEGACY_ONLY.find(given);
    if (stray) throw new UsageError(o.legacy ? `--${stray} applies to custom rules, not to --legacy firewall rules; drop it` : `--${stray} applies to --legacy firewall rules only; add --legacy, or drop it`);
    const position = positionOf(o.position);
    const config = configFrom(o, io);
    // The config file's rule settings may name custom rules: loaded, so they are known.
    await loadRules(config, io.cwd, (line) => io.stderr(`${line}\n`));
    const session = openWriteSession(config, io);
    const say = (text: string) => io.stdout(`${printable(text)}\n`);
    try {
      const zone = await resolveZone(session.client, o.zone as string);
      const expression = o.expression as string;
      const action = o.action as string;
      const description = o.description !== undefined ? { description: o.description } : {};
      if (o.legacy) {
        const products = values(o.products);
        const request = { expression, action, ...description, ...(products.length ? { products } : {}), ...(o.priority !== undefined ? { priority: o.priority } : {}) };
        return await createLegacyRule(session, zone, request, quotasFrom(config, 'firewall-rule-quota'), { yes: o.yes, emergency: o.emergency }, say);
      }
      const skip = values(o.skip);
      const request = { expression, action, ...description, enabled: !o.disabled, ...(skip.length ? { skip } : {}), ...(position ? { position } : {}) };
      return await createCustom(session, zone, request, quotasFrom(config, 'custom-rules-quota'), o.yes, say);
    } finally {
      await session.close();
    }
  },
});
