/**
 * The names a zone's records point at, and how names compare: shared by the scan and
 * dns-dangling-target, so that the scan asks exactly about the names the rule looks up.
 */

/** The record types whose data names another host that must exist (RFC 1035 3.3.1, 3.3.9, 3.3.11; RFC 2782). */
const TARGET_TYPES = ['CNAME', 'MX', 'NS', 'SRV'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** A DNS name as compared: lower case (RFC 4343), without the final dot. */
export function canonicalName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** Dot-separated labels of 1-63 characters, 253 at most (RFC 1035 2.3.4). */
function plausibleName(name: string): boolean {
  if (name === '' || name.length > 253 || /\s/.test(name)) return false;
  return name.split('.').every((label) => label.length >= 1 && label.length <= 63);
}

/**
 * The host a record points at, or null when it names none: a null MX (`.`, RFC 7505 3), an SRV
 * target of `.` (RFC 2782: the service is not available), or data that is no host name. SRV
 * content is `weight port target` (older answers `priority weight port target`): the target is its
 * last word, or `data.target` when the answer has it.
 */
export function recordTarget(type: string | null, content: string | null, data?: unknown): string | null {
  if (!(TARGET_TYPES as readonly string[]).includes(type ?? '')) return null;
  let raw = content ?? '';
  if (type === 'SRV') {
    const target = data && typeof data === 'object' ? (data as Record<string, unknown>)['target'] : undefined;
    raw = typeof target === 'string' ? target : (raw.trim().split(/\s+/).pop() ?? '');
  } else if (type === 'MX') {
    // Some answers write the preference into the content too: `10 mx.example.com`.
    raw = raw.trim().split(/\s+/).pop() ?? '';
  }
  const name = canonicalName(raw);
  return plausibleName(name) ? name : null;
}

/** Whether `name` is `zone` or a name under it. */
export function isAtOrUnder(name: string, zone: string): boolean {
  const z = canonicalName(zone);
  return name === z || name.endsWith(`.${z}`);
}
