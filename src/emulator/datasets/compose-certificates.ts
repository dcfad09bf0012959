import { ago, daysFromNow, type Ca } from './compose.js';
import type { DatasetCertificate, DatasetCertificatePack, Time } from './format.js';
import { issuerFor } from '../vocabulary.js';

/** Certificate packs for datasets written in code, with certificates as the API answers them. */

export interface PackSpec {
  type?: 'universal' | 'advanced';
  hosts: string[];
  ca: Ca;
  validityDays: 14 | 30 | 90 | 365;
  /** Days until the certificates expire (negative: expired); null while the pack is being issued. */
  expiresIn: number | null;
  status?: string;
  /** Default: when the current certificates were issued. */
  created?: Time;
  validationMethod?: 'txt' | 'http' | 'email';
  validationErrors?: string[];
}

/** A pack with explicit certificates: ECDSA only for universal packs, ECDSA + RSA for advanced. */
export function certPack(spec: PackSpec): DatasetCertificatePack {
  const type = spec.type ?? 'universal';
  const status = spec.status ?? 'active';
  const { expiresIn } = spec;
  const issuedAgo = expiresIn === null ? null : spec.validityDays - expiresIn;
  const signatures = type === 'advanced' ? ['ECDSAWithSHA256', 'SHA256WithRSA'] : ['ECDSAWithSHA256'];
  const certificates = signatures.map((signature, i): DatasetCertificate => ({
    hosts: spec.hosts,
    issuer: issuerFor(spec.ca),
    signature,
    status: expiresIn === null ? status : expiresIn < 0 ? 'expired' : 'active',
    bundle_method: 'ubiquitous',
    expires_on: expiresIn === null ? null : daysFromNow(expiresIn),
    priority: type === 'advanced' ? i + 1 : null,
    ...(issuedAgo === null ? {} : { uploaded_on: ago(issuedAgo), modified_on: ago(issuedAgo) }),
  }));
  return {
    type,
    hosts: spec.hosts,
    status,
    validity_days: spec.validityDays,
    validation_method: spec.validationMethod ?? 'txt',
    certificate_authority: spec.ca,
    created_on: spec.created ?? (issuedAgo === null ? 'now-1h' : ago(issuedAgo)),
    certificates,
    ...(spec.validationErrors ? { validation_errors: spec.validationErrors.map((message) => ({ message })) } : {}),
  };
}

/** The free universal pack: the apex and one level of subdomains. */
export function universal(zone: string, ca: Ca, validityDays: 14 | 30 | 90 | 365, expiresIn: number | null, created?: Time) {
  return certPack({ hosts: [zone, `*.${zone}`], ca, validityDays, expiresIn, ...(created ? { created } : {}) });
}

