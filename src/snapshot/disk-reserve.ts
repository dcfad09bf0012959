import { rmSync, writeFileSync } from 'node:fs';

/**
 * Room reserved beside the database while a scan writes, given back when the disk fills: marking
 * the scan aborted needs a WAL frame too, and whether one is free depends on where the disk filled.
 * One left by a killed process is taken over by the next scan.
 */

/** About 60 WAL frames of 4 KiB: the scan's row and the overflow pages of a long summary. */
const RESERVE_BYTES = 256 * 1024;

export class DiskReserve {
  private reserved: boolean;

  private constructor(private readonly path: string | null) {
    this.reserved = path !== null;
  }

  /** Holds the reserve beside `dbPath`; holds nothing for a database in memory or where it cannot be written. */
  static beside(dbPath: string): DiskReserve {
    if (dbPath === '' || dbPath === ':memory:') return new DiskReserve(null);
    const path = `${dbPath}-reserve`;
    try {
      writeFileSync(path, Buffer.alloc(RESERVE_BYTES));
      return new DiskReserve(path);
    } catch {
      // Already too full, or a directory this user may not write: the scan goes on without one.
      rmSync(path, { force: true });
      return new DiskReserve(null);
    }
  }

  /** Gives the room back to the disk; whether there was any to give. */
  release(): boolean {
    if (!this.reserved || this.path === null) return false;
    this.reserved = false;
    try {
      rmSync(this.path, { force: true });
      return true;
    } catch {
      return false;
    }
  }
}

/** Whether an error is SQLite (or the file system) saying the disk is full. */
export function diskIsFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'ENOSPC' || code.startsWith('SQLITE_FULL'));
}
