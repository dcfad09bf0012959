import type { DriftResult } from '../../drift/result.js';
import { PACKAGE } from '../../common/package-info.js';

/** A diff as one JSON document: the whole drift result, documented field by field in docs/diff-json.md. */
export function diffJson(d: DriftResult, exitCode: number): string {
  return `${JSON.stringify({ schema: 'zonewarden.diff/1', toolVersion: PACKAGE.version, exitCode, ...d }, null, 2)}\n`;
}
