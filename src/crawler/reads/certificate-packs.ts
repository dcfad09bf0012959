import { readDeclarationOf } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/**
 * Certificate packs: the vendor renews managed certificates and orders packs on its own, with no
 * audit log entry, so a zone with a pack not active or a certificate in its renewal window is read
 * every night until that settles.
 */
export const certificatePacks: ReadModule = {
  ...readDeclarationOf('certificate_packs'),
  dueByDate: ({ stored, now }) => stored === null || stored.certificatesDue(now),
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'certificatePacks', 'certificate_packs')),
};
