import { expect } from 'vitest';
import type { RawAnswer } from './http.js';

/** A success in the envelope; returns its result. */
export function expectOk(r: RawAnswer) {
  expect(r.status, r.text).toBe(200);
  expect(r.json).toMatchObject({ success: true, errors: [] });
  return r.json.result;
}

/** A failure in the envelope with this status and first error code. */
export function expectFailure(r: RawAnswer, status: number, code: number): void {
  expect(r.status, r.text).toBe(status);
  expect(r.json.success).toBe(false);
  expect(r.json.result).toBeNull();
  expect(r.json.errors[0].code).toBe(code);
}
