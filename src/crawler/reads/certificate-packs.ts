import { readDeclarationOf } from '../../cloudflare/reads.js';
import type { ReadModule } from './zone-read.js';

/** The vendor renews certificates unlogged: a pack not active or in its renewal window is read every night. */
export const certificatePacks: ReadModule = {
  ...readDeclarationOf('certificate_packs'),
  dueByDate: ({ stored, now }) => stored === null || stored.certificatesDue(now),
  run: async (kit, { zone }) => void (await kit.readZoneList(zone, 'certificatePacks', 'certificate_packs')),
};
