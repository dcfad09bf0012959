import { startDnsServer, type RunningDnsServer } from './server.js';
import { worldAnswer } from './world.js';

/**
 * One loopback DNS server per process answering as the world does (world.ts) for every emulator
 * running in the process: what `zonewarden demo` and the tests point --resolver at. It does not
 * keep the process alive.
 */
let shared: Promise<RunningDnsServer> | null = null;

export function worldDnsServer(): Promise<RunningDnsServer> {
  return (shared ??= startDnsServer(worldAnswer, { unref: true }));
}
