import { defineRule } from '../src/policy/rule.js';
import { parseHsts } from '../src/policy/security-models.js';
import { settingOrAnswer, settingRef } from '../src/policy/zone-security.js';

export default defineRule({
  meta: {
    id: 'hsts-weak',
    title: 'HSTS tells browsers to use HTTPS only, for long enough and for every subdomain',
    description:
      'HTTP Strict Transport Security makes a browser refuse plain HTTP for the site after its first visit, closing the window that SSL-stripping attacks use. A short max-age lets the protection lapse between visits; without includeSubDomains an attacker can use a subdomain to set cookies for the whole domain.',
    severity: 'medium',
    category: 'tls',
    scope: 'zone',
    resource: 'zone setting (security_header: HSTS)',
    reads: ['setting:security_header'],
    messages: {
      off: 'HSTS is off: browsers may still connect over plain HTTP',
      shortMaxAge: 'HSTS max-age is {{maxAge}} seconds: less than the {{minMaxAge}} seconds (about {{minDays}} days) recommended',
      noSubdomains: 'HSTS does not include subdomains: a subdomain can still be reached over plain HTTP and used to set cookies for the domain',
    },
    remediation:
      'Enable HSTS with a max-age of at least six months (15552000 s) and includeSubDomains once every subdomain serves HTTPS (`PATCH /zones/{zone_id}/settings/security_header`). Raise max-age in steps: browsers keep it for its whole length.',
    references: ['vendor docs: zone settings (security_header: strict_transport_security enabled, max_age, include_subdomains, preload, nosniff)', 'RFC 6797: HTTP Strict Transport Security'],
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
    if (hsts.enabled !== true || hsts.maxAge === 0) return ctx.fail(settingRef(ctx, 'security_header'), 'off', { enabled: hsts.enabled, maxAge: hsts.maxAge });
    let failed = false;
    const minMaxAge = ctx.options.minMaxAge;
    if (hsts.maxAge === null || hsts.maxAge < minMaxAge) {
      ctx.fail(settingRef(ctx, 'security_header', 'max-age'), 'shortMaxAge', { maxAge: hsts.maxAge ?? 0, minMaxAge, minDays: Math.round(minMaxAge / 86_400) });
      failed = true;
    }
    if (ctx.options.requireSubdomains && hsts.includeSubdomains !== true) {
      ctx.fail(settingRef(ctx, 'security_header', 'includeSubDomains'), 'noSubdomains', { includeSubdomains: hsts.includeSubdomains }, 'low');
      failed = true;
    }
    if (!failed) ctx.pass();
  },
});
