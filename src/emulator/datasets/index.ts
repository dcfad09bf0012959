import { readFileSync } from 'node:fs';
import type { OrgState } from '../state.js';
import { demoDataset } from './demo.js';
import { DatasetError } from './fields.js';
import type { DatasetFile } from './format.js';
import { generateOrganisation, type GeneratedSize } from './generated.js';
import { loadDataset } from './load.js';

export { DatasetError } from './fields.js';
export type { GeneratedSize } from './generated.js';

/** `demo`, `generated`, a path to a dataset JSON file, or a dataset object (tests). */
export type DatasetChoice = 'demo' | 'generated' | string | DatasetFile;

export const DEFAULT_GENERATED: GeneratedSize = { seed: 1, accounts: 5, zones: 50, records: 2000 };

export function buildOrganisation(choice: DatasetChoice, now: Date, size: GeneratedSize = DEFAULT_GENERATED): OrgState {
  if (typeof choice === 'object') return loadDataset(choice, now);
  if (choice === 'demo') return loadDataset(demoDataset(), now);
  if (choice === 'generated') return generateOrganisation(size, now);
  return loadDataset(readDatasetFile(choice), now);
}

function readDatasetFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new DatasetError(`cannot read dataset file ${path} (${code}): give demo, generated or the path of a dataset JSON file`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DatasetError(`dataset file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}
