import type { AuditHeader } from '../audit/store.js';
import type { ZoneOverride } from '../policy/zone-overrides.js';

/** The config file's per-zone rule settings, a line per override: why a rule is silent or graded differently on some zones. */
export interface ZoneSettingLine {
  rule: string;
  /** "zones *.lab.example.com in accounts Acme" */
  where: string;
  /** "off", "on, critical", "critical" */
  setting: string;
}

export function zoneSettingLines(audit: Pick<AuditHeader, 'rules'>): ZoneSettingLine[] {
  return audit.rules.flatMap((r) =>
    ((r.overrides ?? []) as ZoneOverride[]).map((o) => ({
      rule: r.id,
      where: [o.zones ? `zones ${o.zones.join(', ')}` : '', o.accounts ? `${o.zones ? 'in ' : ''}accounts ${o.accounts.join(', ')}` : ''].filter(Boolean).join(' '),
      setting: [o.enabled === undefined ? '' : o.enabled ? 'on' : 'off', o.severity ?? ''].filter(Boolean).join(', '),
    })),
  );
}
