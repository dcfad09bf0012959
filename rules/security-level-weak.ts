import { defineRule } from '../src/policy/rule.js';
import { judgeSwitch } from '../src/policy/checks/zone-security.js';

/**
 * The rule keeps its id (configurations and fingerprints name it), but the security level is not
 * judged: the vendor's security-level page says the threat score is always 0, so every level
 * challenges the same visitors. What still filters by request is the browser integrity check.
 */
export default defineRule({
  meta: {
    id: 'security-level-weak',
    title: 'The browser integrity check runs (the security level no longer filters visitors by reputation)',
    description:
      'The browser integrity check denies requests whose HTTP headers are the ones spammers and abuse tools send, and challenges those with no or a non-standard user agent. The security level used to challenge visitors by IP reputation, but the vendor now scores every request 0 and the level only turns Under Attack mode on or off: no level (low, medium, high) protects more than another, and none is reported here.',
    severity: 'low',
    category: 'firewall',
    scope: 'zone',
    resource: 'zone setting (browser_check)',
    reads: ['setting:browser_check'],
    messages: {
      browserCheckOff: 'the browser integrity check is off: requests with headers typical of spam tools and bots are not stopped{{locked}}',
    },
    remediation:
      'Turn the browser check on (`PATCH /zones/{zone_id}/settings/browser_check` with `on`); exempt known API clients with a configuration rule or a skip rule instead of turning it off for the zone. Raising the security level does not filter more visitors: for reputation, use custom rules, rate limiting or bot protection.',
    references: [
      'vendor docs: security level (the threat score is always 0; the setting turns Under Attack mode on or off)',
      'vendor docs: browser integrity check (zone setting browser_check: on, off)',
    ],
  },
  defaultOptions: {},
  check(ctx) {
    judgeSwitch(ctx, 'browser_check', 'off', 'browserCheckOff');
  },
});
