/**
 * What `npm run bench` measures. Each measure is one request shape fired at the real server
 * and, beside it, at a bare Fastify route answering a constant body of the same byte size:
 * the ceiling that framework, HTTP and the load generator allow on this machine.
 * Add a measure here; run.ts picks it up.
 */
export interface Measure {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The goal, as printed, and its check on the measured figures. */
  goal?: { text: string; met(r: { reqPerSec: number; p99: number; ratio: number }): boolean };
}

const LIST_GOAL: Measure['goal'] = { text: '≥ 60% of ceiling, p99 < 10 ms', met: (r) => r.ratio >= 0.6 && r.p99 < 10 };

export const API_MEASURES: Measure[] = [
  { name: 'category list', method: 'GET', path: '/api/categories', goal: LIST_GOAL },
  { name: 'list a category (24 items)', method: 'GET', path: '/api/resources?category=video-editing', goal: LIST_GOAL },
  { name: 'search (q + tags)', method: 'GET', path: '/api/resources?q=cinematic&tags=LUTs,Film', goal: LIST_GOAL },
  // Clients POST without a body; one resource takes every increment (the worst case for row locks).
  { name: 'record a download (POST)', method: 'POST', path: '/api/resources/1/download', goal: { text: '≥ 5,000 req/s (SQLite)', met: (r) => r.reqPerSec >= 5000 } },
];
