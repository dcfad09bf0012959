import { defineRule } from '../src/policy/rule.js';
import { parseHsts } from '../src/cloudflare/zone-settings/setting.js';
import { passUnlessFailed, settingOrAnswer, settingRef } from '../src/policy/checks/zone-security.js';

/** hstspreload.org submission requirements: the shortest max-age the preload list accepts (one year). */
const PRELOAD_MIN_MAX_AGE = 31_536_000;

export default defineRule({
  meta: {
    id: 'hsts-weak',
    title: 'HSTS tells browsers to use HTTPS only, for long enough and for every subdomain; a preload request meets the preload list\'s terms',
    description:
      'HTTP Strict Transport Security makes a browser refuse plain HTTP for the site after its first visit, closing the window that SSL-stripping attacks use. A short max-age lets the protection lapse between visits; without includeSubDomains an attacker can use a subdomain to set cookies for the whole domain. Asking for preloading (the preload directive) is only accepted by the browsers\' preload list with a max-age of at least one year and includeSubDomains: a request without them is refused, and the first visit stays unprotected.',
    severity: 'medium',
    category: 'tls',
    scope: 'zone',
    resource: 'zone setting (security_header: HSTS)',
    reads: ['setting:security_header'],
    messages: {
      off: 'HSTS is off: browsers may still connect over plain HTTP{{locked}}',
      shortMaxAge: 'HSTS max-age is {{maxAge}} seconds: less than the {{minMaxAge}} seconds (about {{minDays}} days) recommended{{locked}}',
      noSubdomains: 'HSTS does not include subdomains: a subdomain can still be reached over plain HTTP and used to set cookies for the domain{{locked}}',
      preloadRefused: 'HSTS asks for preloading, but the preload list would refuse it: it needs {{missing}}{{locked}}',
    },
    remediation:
      'Enable HSTS with a max-age of at least six months (15552000 s) and includeSubDomains once every subdomain serves HTTPS (`PATCH /zones/{zone_id}/settings/security_header`). Raise max-age in steps: browsers keep it for its whole length. To be preloaded, also set max-age to at least one year (31536000 s) and includeSubDomains before submitting the domain; otherwise turn preload off.',
    references: [
      'vendor docs: zone settings (security_header: strict_transport_security enabled, max_age, include_subdomains, preload, nosniff)',
      'RFC 6797: HTTP Strict Transport Security',
      'hstspreload.org submission requirements: max-age at least 31536000 seconds (1 year), includeSubDomains and preload',
    ],
    optionHelp: {
      minMaxAge: 'the shortest acceptable max-age, in seconds (six months by default)',
      requireSubdomains: 'whether HSTS must include subdomains',
    },
  },
  defaultOptions: { minMaxAge: 15_552_000, requireSubdomains: true },
  check(ctx) {
    const setting = settingOrAnswer(ctx, 'security_header');
    if (!setting) return;
    const hsts = parseHsts(setting.value);
    // A max-age of 0 tells browsers to forget the policy: HSTS off, whatever `enabled` says.
    if (hsts.enabled !== true || hsts.maxAge === 0) return ctx.fail(settingRef(ctx, 'security_header'), 'off', { locked: setting.lockedNote, enabled: hsts.enabled, maxAge: hsts.maxAge });
    const minMaxAge = ctx.options.minMaxAge;
    passUnlessFailed(ctx, (fail) => {
      if (hsts.maxAge === null || hsts.maxAge < minMaxAge) {
        fail(settingRef(ctx, 'security_header', 'max-age'), 'shortMaxAge', { locked: setting.lockedNote, maxAge: hsts.maxAge ?? 0, minMaxAge, minDays: Math.round(minMaxAge / 86_400) });
      }
      if (ctx.options.requireSubdomains && hsts.includeSubdomains !== true) {
        fail(settingRef(ctx, 'security_header', 'includeSubDomains'), 'noSubdomains', { locked: setting.lockedNote, includeSubdomains: hsts.includeSubdomains }, 'low');
      }
      if (hsts.preload !== true) return;
      // hstspreload.org submission requirements: a header with the preload directive requests
      // inclusion, which is accepted only with max-age >= one year and includeSubDomains.
      const missing: string[] = [];
      if (hsts.maxAge === null || hsts.maxAge < PRELOAD_MIN_MAX_AGE) missing.push(`a max-age of at least one year (${PRELOAD_MIN_MAX_AGE.toLocaleString('en-US')} seconds; it is ${hsts.maxAge?.toLocaleString('en-US') ?? 'not set'})`);
      if (hsts.includeSubdomains !== true) missing.push('includeSubDomains');
      if (missing.length > 0) {
        fail(settingRef(ctx, 'security_header', 'preload'), 'preloadRefused', { locked: setting.lockedNote, missing: missing.join(' and '), maxAge: hsts.maxAge, includeSubdomains: hsts.includeSubdomains }, 'low');
      }
    });
  },
});
