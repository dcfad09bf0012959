import { CODES, failureBody } from './envelope.js';

/**
 * Injected server failures for tests and benchmarks. A fault is decided before the request is
 * handled, so a failed write never half-happens: retrying it is always safe against the emulator.
 */
export interface FaultOptions {
  /** Share of answers (0..1) replaced by a 500, 502 or 503. */
  faultRate: number;
  /** Routes (`GET /zones/{zone_id}/filters`) that always answer 500. */
  failRoutes: readonly string[];
  seed: number;
}

export interface InjectedFault {
  status: number;
  contentType: string;
  body: string;
}

/** mulberry32: small, fast and deterministic for a given seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BAD_GATEWAY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

export class Faults {
  private readonly random: () => number;
  private next = 0;

  constructor(private readonly options: FaultOptions) {
    this.random = seededRandom(options.seed);
  }

  pick(routeKey: string): InjectedFault | null {
    if (this.options.failRoutes.includes(routeKey)) return this.make(500);
    if (this.options.faultRate <= 0 || this.random() >= this.options.faultRate) return null;
    // Rotate through the statuses seen in the wild: an API error, the edge's HTML page, overload.
    const status = [500, 502, 503][this.next++ % 3]!;
    return this.make(status);
  }

  private make(status: number): InjectedFault {
    if (status === 502) return { status, contentType: 'text/html', body: BAD_GATEWAY_PAGE };
    const message = status === 503 ? 'Service temporarily unavailable' : 'Internal server error';
    return { status, contentType: 'application/json', body: JSON.stringify(failureBody([{ code: CODES.internal, message }])) };
  }
}
