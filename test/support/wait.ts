/** Waits, polling, until `condition` holds: for a state to be reached, never for a length of time. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 100_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
