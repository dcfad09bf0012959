import type { MigrationPlan } from '../../actions/migration/index.js';
import { printable, shorten } from '../../common/printable.js';
import { obj, str } from '../../cloudflare/fields.js';

/** What `migrate plan` prints: text, or JSON whose "config" object `migrate apply --config FILE` takes back. */

export const MIGRATION_PLAN_SCHEMA = 'zonewarden.migration-plan/2';

const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

export const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;

export function planJson(p: MigrationPlan): Record<string, unknown> {
  return {
    schema: MIGRATION_PLAN_SCHEMA,
    zone: p.zone,
    state: p.state,
    stage: p.stage,
    oldWaf: p.oldWaf,
    newWaf: p.newWaf,
    compatible: p.compatible,
    blockers: p.blockers,
    owasp: p.owasp,
    validationMode: p.validationMode,
    overrides: p.overrides,
    firewallRules: p.firewallRules,
    configSource: p.configSource,
    config: p.config,
  };
}

function settingName(s: { id: string; name: string | null }): string {
  return s.name ? `${s.name}${/^\d+$/.test(s.id) ? ` (${s.id})` : ''}` : s.id;
}


/** The firewall rules the migration carries: the bypass rules of the previous managed rules, and only they. */
function carriedLines(p: MigrationPlan): string[] {
  const fw = p.firewallRules;
  if (fw.count === null) return [];
  if (!fw.bypass.length) return [`firewall rules carried: none (of ${plural(fw.count, 'firewall rule')}, none bypasses the previous managed rules; the others are not migrated)`];
  const lines = [`firewall rules carried: ${plural(fw.bypass.length, 'bypass rule')} of the previous managed rules (of ${fw.count} firewall rules; at most 200 are carried, each expression at most 4,096 bytes):`];
  for (const r of fw.bypass.slice(0, 20)) {
    lines.push(`  - ${r.description ? `"${shorten(r.description, 60)}" ` : ''}${r.id}${r.paused ? ' [paused]' : ''}${r.bytes === null ? ', expression not known' : `, ${r.bytes} bytes`}`);
  }
  if (fw.bypass.length > 20) lines.push(`  - and ${fw.bypass.length - 20} more (--format json lists them all)`);
  return lines;
}

function overrideLines(p: MigrationPlan): string[] {
  const o = p.overrides;
  if (!o.known) return [`OWASP overrides lost: not known, the previous managed rules could not be read (${o.reason})`];
  const lines: string[] = [];
  if (!o.lost.length) lines.push('OWASP overrides lost: none (no group of the previous OWASP core rule set has rules changed from their defaults)');
  else {
    lines.push('OWASP overrides lost (the migration does not carry overrides of the previous core rule set):');
    for (const g of o.lost) {
      const off = g.rulesOff.length ? `; off now: ${g.rulesOff.slice(0, 5).map(settingName).join(', ')}${g.rulesOff.length > 5 ? ` and ${g.rulesOff.length - 5} more` : ''}` : '';
      lines.push(`  - group ${settingName(g.group)}: ${plural(g.changedRules, 'rule')} changed from the default${off}`);
    }
  }
  lines.push(o.carried.length ? `vendor rule overrides carried into the new configuration: ${o.carried.length} (${o.carried.slice(0, 5).map((r) => `${settingName(r)} ${r.mode}`).join(', ')}${o.carried.length > 5 ? ', ...' : ''})` : 'vendor rule overrides carried: none');
  return lines;
}

export function planText(p: MigrationPlan): string {
  const lines: string[] = [`migration plan for ${p.zone.name} (${p.zone.plan ?? 'unknown'} plan, zone ${p.zone.id})`];
  if (p.stage === 'complete') {
    lines.push('already migrated (state complete): the new managed rules run and the previous ones are gone; the migration is irreversible, so there is nothing to plan');
    return `${lines.map(printable).join('\n')}\n`;
  }
  const wafs = `previous managed rules ${p.oldWaf ?? 'unknown'}, new ${p.newWaf ?? 'unknown'}`;
  const stateNote = p.stage === 'validation' ? ' (validation mode: both versions run, the new first; past the eligibility check)' : p.state === 'default' ? ' (not started, as start)' : '';
  lines.push(`state: ${p.state ?? 'unknown'}${stateNote}; ${wafs}`);
  lines.push(p.blockers.length ? 'blockers:' : 'blockers: none');
  for (const b of p.blockers) lines.push(`  - ${b.message}`);
  lines.push(`after the migration: ${p.owasp.text}`, p.validationMode.text);
  lines.push(...carriedLines(p), ...overrideLines(p));
  if (p.config) {
    const from = p.configSource === 'entrypoint' ? 'what validation mode runs now, kept when it finishes' : 'GET waf_migration/config';
    lines.push(`resulting configuration "${p.config.name}" (${p.config.rules.length} rule(s), from ${from}):`);
    p.config.rules.forEach((rule, i) => lines.push(ruleLine(rule, i)));
    if (!p.config.rules.some((r) => r['enabled'] !== false)) lines.push('  note: no rule is enabled, so the zone would run no managed rules after the migration: apply refuses it until one is');
    lines.push('  the full configuration: --format json; its "config" object, saved and edited, goes to apply --config FILE');
  }
  lines.push(nextStep(p));
  return `${lines.map(printable).join('\n')}\n`;
}

function ruleLine(rule: Record<string, unknown>, i: number): string {
  const action = str(rule['action']) ?? '?';
  const params = obj(rule['action_parameters']);
  const target = action === 'execute' && str(params['id']) ? ` ruleset ${str(params['id'])}` : '';
  const overrides = obj(params['overrides']);
  const parts = [count(overrides['categories']) ? `${count(overrides['categories'])} category override(s)` : '', count(overrides['rules']) ? `${count(overrides['rules'])} rule override(s)` : ''].filter(Boolean);
  const expression = str(rule['expression']);
  const when = expression === 'true' ? 'all traffic' : `when ${shorten(expression ?? '?', 80)}`;
  const description = str(rule['description']);
  return `  ${i + 1}. ${action}${target} (${rule['enabled'] === false ? 'disabled' : 'enabled'}), ${when}${parts.length ? `; ${parts.join(', ')}` : ''}${description ? `: "${shorten(description, 60)}"` : ''}`;
}

function nextStep(p: MigrationPlan): string {
  if (p.stage === 'unknown') return `next: the migration state "${p.state ?? 'none'}" is not one zonewarden knows; check the zone in the dashboard`;
  if (p.blockers.length) return 'next: remove the blockers above, then plan again';
  const mode = p.stage === 'start' && p.validationMode.available ? 'validation' : 'pending';
  return `next: zonewarden migrate apply --zone ${p.zone.name} --mode ${mode} (a dry run; add --yes to migrate)`;
}

