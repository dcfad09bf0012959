import { startDnsServer, type RunningDnsServer } from './server.js';
import { worldAnswer } from './world.js';

/** One loopback DNS server per process answering as world.ts does (what --resolver points at); it keeps no process alive. */
let shared: Promise<RunningDnsServer> | null = null;

export function worldDnsServer(): Promise<RunningDnsServer> {
  return (shared ??= startDnsServer(worldAnswer, { unref: true }));
}
