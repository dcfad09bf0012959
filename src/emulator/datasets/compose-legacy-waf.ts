import type { DatasetWaf, DatasetWafOverride, DatasetWafPackage } from './format.js';

/**
 * The previous managed rules (legacy WAF) of a zone, for datasets written in code: the vendor's
 * managed package and the OWASP package, with a few groups and rules each, changed as a zone's
 * team changed them.
 */

interface CatalogueGroup {
  name: string;
  description: string;
  default_mode: 'on' | 'off';
  rules: Array<[id: string, description: string]>;
}

const MANAGED_MODES = ['default', 'disable', 'simulate', 'block', 'challenge'];

const MANAGED_GROUPS: CatalogueGroup[] = [
  {
    name: 'Cloudflare Specials',
    description: 'Rules written for specific attack types seen across the network.',
    default_mode: 'on',
    rules: [
      ['100001', 'Block requests with a null byte in the URI'],
      ['100002', 'SQLi - Comment sequence in the query string'],
      ['100003', 'XSS - JavaScript URI in the request body'],
      ['100004', 'Anomaly: Header: Host - Missing or malformed'],
    ],
  },
  {
    name: 'Cloudflare WordPress',
    description: 'Attacks against WordPress sites and plugins.',
    default_mode: 'on',
    rules: [
      ['100005', 'WordPress - xmlrpc.php pingback abuse'],
      ['100006', 'WordPress - Dangerous file upload via admin-ajax.php'],
      ['100007', 'WordPress - Broken access control in plugin REST routes'],
    ],
  },
  {
    name: 'Cloudflare PHP',
    description: 'Attacks against PHP applications.',
    default_mode: 'on',
    rules: [
      ['100008', 'PHP - Code injection via php://input'],
      ['100009', 'PHP - Remote file inclusion in the query string'],
    ],
  },
  {
    name: 'Cloudflare Drupal',
    description: 'Attacks against Drupal sites. Off unless the site runs Drupal.',
    default_mode: 'off',
    rules: [
      ['100010', 'Drupal - Form API injection'],
      ['100011', 'Drupal - Remote code execution in the REST module'],
    ],
  },
];

const OWASP_GROUPS: CatalogueGroup[] = [
  {
    name: 'OWASP Bad Robots',
    description: 'Requests from known scanners and rogue crawlers.',
    default_mode: 'on',
    rules: [
      ['990002', 'Request Indicates a Security Scanner Scanned the Site'],
      ['990012', 'Rogue web site crawler'],
    ],
  },
  {
    name: 'OWASP XSS Attacks',
    description: 'Cross-site scripting patterns.',
    default_mode: 'on',
    rules: [
      ['958000', 'Cross-site Scripting (XSS) Attack'],
      ['958001', 'Cross-site Scripting (XSS) Attack: document.cookie'],
      ['973300', 'Possible XSS Attack Detected - HTML Tag Handler'],
    ],
  },
  {
    name: 'OWASP SQL Injection Attacks',
    description: 'SQL injection patterns.',
    default_mode: 'on',
    rules: [
      ['981318', 'SQL Injection Attack: Common Injection Testing Detected'],
      ['950901', 'SQL Injection Attack: SQL Tautology Detected'],
    ],
  },
  {
    name: 'OWASP Protocol Violations',
    description: 'Requests that break the HTTP protocol.',
    default_mode: 'on',
    rules: [
      ['960911', 'Invalid HTTP Request Line'],
      ['960020', 'Pragma Header requires Cache-Control Header'],
    ],
  },
];

export interface WafSpec {
  /** `old_waf_status`; default true. */
  enabled?: boolean;
  sensitivity: 'high' | 'medium' | 'low' | 'off';
  actionMode: 'simulate' | 'block' | 'challenge';
  /** Group name -> mode, where it differs from the group's default (a group override). */
  groupOverrides?: Record<string, 'on' | 'off'>;
  /** Rule id -> mode, where it differs from the rule's default (a rule override). */
  ruleOverrides?: Record<string, string>;
  /** URI-based overrides (Enterprise only; they block the migration). */
  overrides?: DatasetWafOverride[];
}

/** The standard legacy WAF: the managed package and the OWASP package, with the given changes. */
export function legacyWaf(spec: WafSpec): DatasetWaf {
  const groupOverrides = spec.groupOverrides ?? {};
  const ruleOverrides = spec.ruleOverrides ?? {};
  const used = new Set<string>();
  const groups = (catalogue: CatalogueGroup[], ruleDefault: string, allowed: string[]) =>
    catalogue.map((g) => {
      if (g.name in groupOverrides) used.add(g.name);
      return {
        name: g.name,
        description: g.description,
        default_mode: g.default_mode,
        mode: groupOverrides[g.name] ?? g.default_mode,
        rules: g.rules.map(([id, description], i) => {
          if (id in ruleOverrides) used.add(id);
          return {
            id,
            description,
            priority: String((i + 1) * 5),
            default_mode: ruleDefault,
            mode: ruleOverrides[id] ?? ruleDefault,
            allowed_modes: allowed,
          };
        }),
      };
    });
  const packages: DatasetWafPackage[] = [
    {
      name: 'Cloudflare Managed Ruleset',
      description: 'Covers OWASP Top 10 vulnerabilities, and more.',
      detection_mode: 'traditional',
      groups: groups(MANAGED_GROUPS, 'block', MANAGED_MODES),
    },
    {
      name: 'OWASP ModSecurity Core Rule Set',
      description: 'OWASP Core Ruleset (2013) provides protection against common attack categories.',
      detection_mode: 'anomaly',
      sensitivity: spec.sensitivity,
      action_mode: spec.actionMode,
      groups: groups(OWASP_GROUPS, 'on', ['on', 'off']),
    },
  ];
  for (const key of [...Object.keys(groupOverrides), ...Object.keys(ruleOverrides)]) {
    if (!used.has(key)) throw new Error(`dataset: override of unknown WAF group or rule ${key}`);
  }
  return { enabled: spec.enabled ?? true, packages, ...(spec.overrides ? { overrides: spec.overrides } : {}) };
}

