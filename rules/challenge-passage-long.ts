import { num } from '../src/cloudflare/fields.js';
import { defineRule } from '../src/policy/rule.js';
import { settingOrAnswer, settingRef } from '../src/policy/checks/zone-security.js';

/** The vendor recommends a Challenge Passage of 15 to 45 minutes: the default limit is its top, 2700 seconds. */
export default defineRule({
  meta: {
    id: 'challenge-passage-long',
    title: 'A solved challenge lets a visitor through for a short time only',
    description:
      "A visitor (or a bot) that solves one challenge from a custom rule, an IP access rule or Under Attack mode gets a cf_clearance cookie and is not challenged again until it expires, after Challenge Passage. The vendor defaults it to 30 minutes and recommends 15 to 45 minutes; a longer passage lets one solved challenge, or one cookie sold by a challenge-solving service, carry automated traffic past every challenge for hours or days.",
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone setting (challenge_ttl)',
    reads: ['setting:challenge_ttl'],
    messages: {
      long: 'Challenge Passage is {{duration}} ({{seconds}} seconds), longer than {{limit}} seconds: a client that solves one challenge is not challenged again for that long{{locked}}',
    },
    remediation:
      'Shorten Challenge Passage to the vendor\'s recommended 15 to 45 minutes (`PATCH /zones/{zone_id}/settings/challenge_ttl` with `{"value": 1800}`, the default; the API accepts 300, 900, 1800, 2700, 3600 and longer values).',
    references: [
      'vendor docs: Challenge Passage (cf_clearance cookie lifetime; default 30 minutes; the vendor recommends 15 to 45 minutes; not applied to challenges of WAF managed rules)',
      'vendor API reference: zone settings, challenge_ttl (seconds: 300, 900, 1800, 2700, 3600, 7200, 10800, 14400, 28800, 57600, 86400, 604800, 2592000, 31536000; default 1800)',
    ],
    optionHelp: {
      maxSeconds: 'the longest acceptable Challenge Passage, in seconds (2700: 45 minutes, the top of the vendor\'s recommended 15 to 45 minutes)',
    },
  },
  defaultOptions: { maxSeconds: 2700 },
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'challenge_ttl');
    if (!setting) return;
    const seconds = num(setting.value);
    if (seconds === null) return ctx.unknown(settingRef(ctx, 'challenge_ttl'), `the challenge_ttl setting's value is not a number of seconds (${JSON.stringify(setting.value)})`);
    // At the limit is within it: only a longer passage is reported.
    if (seconds <= ctx.options.maxSeconds) return ctx.pass();
    ctx.fail(settingRef(ctx, 'challenge_ttl'), 'long', { locked: setting.lockedNote, seconds, duration: durationOf(seconds), limit: ctx.options.maxSeconds });
  },
});

/** Seconds in the largest whole unit that fits, as the dashboard lists the values (1 hour, 30 days). */
function durationOf(seconds: number): string {
  const units: Array<[number, string]> = [
    [31_536_000, 'year'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}
