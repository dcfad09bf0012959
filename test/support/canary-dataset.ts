import type { DatasetFile } from '../../src/emulator/datasets/format.js';

/** An organisation whose server puts the credential into every id it serves (a proxy or a hostile server): for canary tests. */
export function echoingDataset(secret: string): DatasetFile {
  return {
    version: 1,
    accounts: [
      {
        id: `acct-${secret}`,
        name: 'Canary Ltd',
        zones: [{ id: `zone-${secret}`, name: 'canary.example', status: 'pending', dns_records: [{ id: `rec-${secret}`, type: 'A', name: 'db.@', content: '10.0.0.7' }] }],
      },
    ],
  };
}
