import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer, settingRef } from '../src/policy/zone-security.js';

/**
 * Development Mode is a switch for the hours when a site's static files are being changed: the
 * vendor bypasses its edge cache (and Polish) so the changes show at once, and turns it off by
 * itself three hours later. Seen on in a scan, it means every cacheable request is going to the
 * origin right now. Low: it ends on its own and opens no way in; what it costs is the cache's
 * shield for the origin (load, speed) while it lasts.
 */
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
    // The mode ends by itself 3 hours after it was turned on, with no change a log would show: an
    // answer "on" older than that is judged as ended, and a failure holds until that end.
    dependsOnTime: true,
    declaresHorizon: true,
    messages: {
      on: 'Development Mode is on (since {{since}}): the edge cache is bypassed and every request for cacheable content reaches the origin until it turns itself off, 3 hours after it was turned on',
    },
    remediation:
      'Turn Development Mode off once the change is checked (`PATCH /zones/{zone_id}/settings/development_mode` with `{"value": "off"}`); to show changed files at once, purge them from the cache (`POST /zones/{zone_id}/purge_cache`) instead of bypassing it.',
    references: [
      'vendor docs: Development Mode (suspends edge caching and Polish for three hours unless turned off before; bypasses the cache, does not purge it)',
      'vendor API reference: zone settings, development_mode (value on | off; time_remaining: seconds until it expires; lasts 3 hours, then turns off)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    ctx.holdsUntil(null);
    const setting = settingOrAnswer(ctx, 'development_mode');
    if (!setting) return;
    if (setting.value !== 'on') return ctx.pass();
    const read = ctx.zone.setting('development_mode');
    // modified_on: when the setting last changed, here when it was turned on (the API may send null or "").
    const modifiedOn = read.known && read.value.offered && read.value.modifiedOn ? read.value.modifiedOn : null;
    const start = modifiedOn === null ? Number.NaN : new Date(modifiedOn).getTime();
    if (Number.isFinite(start)) {
      const ends = start + LASTS_MS;
      // Read before it ended by itself (an incremental night may carry that answer forward): off now.
      if (ctx.now.getTime() >= ends) return ctx.pass();
      ctx.holdsUntil(new Date(ends));
    }
    ctx.fail(settingRef(ctx, 'development_mode'), 'on', { development_mode: 'on', since: modifiedOn ?? 'an unrecorded time' });
  },
});
