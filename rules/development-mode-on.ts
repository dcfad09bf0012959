import { defineRule, type RuleOptions, type ZoneContext } from '../src/policy/rule.js';
import { settingOrAnswer, settingRef } from '../src/policy/checks/zone-security.js';

/** Low: Development Mode ends on its own and opens no way in; it costs the origin the cache's shield while on. */
/** vendor docs: Development Mode lasts three hours unless turned off before. */
const LASTS_MS = 3 * 3_600_000;

export default defineRule({
  meta: {
    id: 'development-mode-on',
    title: 'Development Mode is off: the edge cache serves cacheable content',
    description:
      "Development Mode suspends the vendor's edge cache and Polish so that changes to images, CSS and JavaScript show at once; the vendor notes it slows the site down and turns it off by itself three hours after it was turned on. While it is on, every request for cacheable content reaches the origin, which loses the cache's protection against load and request floods. It is meant for the minutes of a deployment, not as a way to see changes: purge the cache instead.",
    severity: 'low',
    category: 'zone',
    scope: 'zone',
    resource: 'zone setting (development_mode)',
    reads: ['setting:development_mode'],
    messages: {
      on: 'Development Mode is on ({{left}}): the edge cache is bypassed and every request for cacheable content reaches the origin until it turns itself off, 3 hours after it was turned on{{locked}}',
    },
    remediation:
      'Turn Development Mode off once the change is checked (`PATCH /zones/{zone_id}/settings/development_mode` with `{"value": "off"}`); to show changed files at once, purge them from the cache (`POST /zones/{zone_id}/purge_cache`) instead of bypassing it.',
    references: [
      'vendor docs: Development Mode (suspends edge caching and Polish for three hours unless turned off before; bypasses the cache, does not purge it)',
      'vendor API reference: zone settings, development_mode (value on | off; time_remaining: seconds until it expires; lasts 3 hours, then turns off)',
      'vendor API reference: zones, development_mode (seconds until Development Mode expires, negative once it has, 0 if never enabled; in the zone list)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    // The zone list's development_mode (the setting is not read where it has it) counts from when the
    // list was read, not from the audit's time: judged later, the same list gives the same end.
    const listed = ctx.zone.listedDevelopmentMode;
    if (listed !== null) {
      const listedAt = Date.parse(ctx.zone.listedAt() ?? '');
      return judgeLeft(ctx, listed, Number.isFinite(listedAt) ? listedAt : ctx.now.getTime(), '');
    }
    // A zone list without the field: the setting answer, read tonight or on an earlier night.
    const setting = settingOrAnswer(ctx, 'development_mode');
    if (!setting) return;
    if (setting.value !== 'on') return ctx.pass();
    const read = ctx.zone.setting('development_mode');
    const answer = read.known && read.value.offered ? read.value : null;
    if (answer?.timeRemaining !== null && answer?.timeRemaining !== undefined) {
      // time_remaining counts from when the answer was read: the start of the scan that read it.
      const readAt = Date.parse(ctx.zone.settingsReadAt() ?? '');
      return judgeLeft(ctx, answer.timeRemaining, Number.isFinite(readAt) ? readAt : ctx.now.getTime(), setting.lockedNote);
    }
    // No time_remaining: from modified_on, when it was turned on (the API may send null or "").
    const start = answer?.modifiedOn ? new Date(answer.modifiedOn).getTime() : Number.NaN;
    if (!Number.isFinite(start)) return ctx.fail(settingRef(ctx, 'development_mode'), 'on', { development_mode: 'on', left: 'since an unrecorded time', locked: setting.lockedNote });
    const ends = start + LASTS_MS;
    // Read before it ended by itself (an incremental night may carry that answer forward): off now.
    if (ctx.now.getTime() >= ends) return ctx.pass();
    ctx.fail(settingRef(ctx, 'development_mode'), 'on', { development_mode: 'on', left: `since ${answer!.modifiedOn}, until ${new Date(ends).toISOString()}`, locked: setting.lockedNote });
  },
});

/** Judged by the seconds left when read at `readAt` (ms); the finding names the end, which stays true. */
function judgeLeft(ctx: ZoneContext<RuleOptions>, seconds: number, readAt: number, locked: string): void {
  const ends = readAt + seconds * 1000;
  if (seconds <= 0 || ctx.now.getTime() >= ends) return ctx.pass();
  const until = new Date(ends).toISOString();
  ctx.fail(settingRef(ctx, 'development_mode'), 'on', { development_mode: 'on', until, left: `until ${until}`, locked });
}
