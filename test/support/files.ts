import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a directory, recursively, as one text (bytes as latin1): to look for secrets in all a command wrote. */
export function allFilesText(dir: string, except: (name: string) => boolean = () => false): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !except(e.name))
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}
