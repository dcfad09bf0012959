import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** Every file under a directory, recursively, as one text (bytes as latin1): to look for secrets in all a command wrote. */
export function allFilesText(dir: string, except: (name: string) => boolean = () => false): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !except(e.name))
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

/** Every file under a directory as text, the HTML report's gzipped findings inflated: to look for secrets in reports. */
export function reportText(dir: string): string {
  let text = '';
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const body = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    text += body;
    const blob = /id="zw-findings"[^>]*>([^<]*)</.exec(body)?.[1];
    if (blob) text += gunzipSync(Buffer.from(blob, 'base64')).toString('utf8');
  }
  return text;
}
