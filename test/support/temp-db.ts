import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openSnapshot, type Db } from '../../src/snapshot/db.js';

/** Real snapshot databases in temporary files, each closed after its test. Call at a describe's or file's top level. */
export function tempDatabases(prefix: string): () => Db {
  const open: Db[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });
  return () => {
    const db = openSnapshot(join(mkdtempSync(join(tmpdir(), prefix)), 'zonewarden.db'));
    open.push(db);
    return db;
  };
}
