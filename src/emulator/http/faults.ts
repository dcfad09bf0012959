import { CODES, failureBody } from './envelope.js';

/**
 * Injected failures: server errors as the API and the edge send them, and malformed successes a
 * client must not trust. Decided before the request is handled, so a failed write never half-happens.
 */
export const FAULT_KINDS = ['500', '502', '503', '200-false', 'truncated', 'html-200'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultOptions {
  /** Share of answers (0..1) replaced by a fault. */
  faultRate: number;
  /** The faults to rotate through (default 500, 502, 503). */
  kinds?: readonly FaultKind[];
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

export const BAD_GATEWAY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

export class Faults {
  private readonly random: () => number;
  private next = 0;

  constructor(private readonly options: FaultOptions) {
    this.random = seededRandom(options.seed);
  }

  pick(routeKey: string): InjectedFault | null {
    if (this.options.failRoutes.includes(routeKey)) return FAULTS['500'];
    if (this.options.faultRate <= 0 || this.random() >= this.options.faultRate) return null;
    const kinds = this.options.kinds?.length ? this.options.kinds : DEFAULT_KINDS;
    return FAULTS[kinds[this.next++ % kinds.length]!];
  }
}

const DEFAULT_KINDS: readonly FaultKind[] = ['500', '502', '503'];

const json = (status: number, message: string): InjectedFault => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(failureBody([{ code: CODES.internal, message }])),
});

const FAULTS: Readonly<Record<FaultKind, InjectedFault>> = {
  '500': json(500, 'Internal server error'),
  '502': { status: 502, contentType: 'text/html', body: BAD_GATEWAY_PAGE },
  '503': json(503, 'Service temporarily unavailable'),
  '200-false': json(200, 'Internal error: please retry'),
  truncated: { status: 200, contentType: 'application/json', body: '{"success":true,"errors":[],"messages":[],"result":[{"id":"' },
  'html-200': { status: 200, contentType: 'text/html', body: '<html><body><h1>Scheduled maintenance</h1></body></html>' },
};
