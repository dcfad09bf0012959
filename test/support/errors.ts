import { expect } from 'vitest';

/** The error `fn` throws, checked to be of `type`; fails the test when nothing is thrown. */
export function thrownBy<E extends Error>(fn: () => unknown, type: new (...args: never[]) => E): E {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(type);
    return err as E;
  }
  throw new Error(`expected a ${type.name}, nothing was thrown`);
}
