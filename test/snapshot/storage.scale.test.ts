import { describe, it } from 'vitest';
import { emulatorsClosedAfterEach } from '../support/http.js';
import { rescansGrowOnlyWithChanges } from '../support/storage.js';

/** The snapshot store's rescan property at an organisation's scale (npm run test:full); npm test checks it at 20 zones. */
const emulator = emulatorsClosedAfterEach();

describe('rescans, at scale', () => {
  it('grow an unchanged organisation of 200 zones and 20,000 records by at most 2%, then version only what changed, keeping history', async () => {
    const organisation = { seed: 5, accounts: 4, zones: 200, records: 20_000 };
    await rescansGrowOnlyWithChanges(await emulator({ dataset: 'generated', generated: organisation }), organisation);
  });
});
