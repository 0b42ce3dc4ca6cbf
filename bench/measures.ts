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
  /** Each request from its own client address (X-Forwarded-For; the server runs with TRUST_PROXY). */
  distinctVisitors?: boolean;
  /** Connections held open at once, each sending its next request when answered (default: the run's, 10). */
  connections?: number;
  /** Run against a server started with these settings too (one extra server per distinct set). */
  serverEnv?: Record<string, string>;
  /** The goal, as printed, and its check on the measured figures. */
  goal?: { text: string; met(r: { reqPerSec: number; p99: number; ratio: number }): boolean };
}

/** A visitor's browser: isbot takes load generators for bots, whose downloads do not count. */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const LIST_GOAL: Measure['goal'] = { text: '≥ 60% of ceiling, p99 < 10 ms', met: (r) => r.ratio >= 0.6 && r.p99 < 10 };

export const API_MEASURES: Measure[] = [
  { name: 'category list', method: 'GET', path: '/api/categories', goal: LIST_GOAL },
  { name: 'list a category (24 items)', method: 'GET', path: '/api/resources?category=video-editing', goal: LIST_GOAL },
  { name: 'search (q + tags)', method: 'GET', path: '/api/resources?q=cinematic&tags=LUTs,Film', goal: LIST_GOAL },
  // Clients POST without a body; one resource takes every increment (the worst case for row locks), each download by
  // another visitor (a browser's User-Agent, its own address) so that each one counts and none meets the rate limit.
  // A site taking thousands of downloads a second has hundreds of visitors mid-download at any moment: the goal is
  // measured with 100 connections open (on SQLite, one commit then holds the downloads of many). With 10, each
  // visitor's next download waits for the commit of its last one, and that latency bounds the rate.
  {
    name: 'record a download, unique counting (distinct visitors, 10 at once)',
    method: 'POST',
    path: '/api/resources/1/download',
    headers: { 'user-agent': BROWSER_UA },
    distinctVisitors: true,
  },
  {
    name: 'record a download, unique counting (distinct visitors, 100 at once)',
    method: 'POST',
    path: '/api/resources/1/download',
    headers: { 'user-agent': BROWSER_UA },
    distinctVisitors: true,
    connections: 100,
    goal: { text: '≥ 5,000 req/s (SQLite)', met: (r) => r.reqPerSec >= 5000 },
  },
  {
    name: 'record a download, DOWNLOAD_COUNTING=every (distinct visitors, 100 at once)',
    method: 'POST',
    path: '/api/resources/1/download',
    headers: { 'user-agent': BROWSER_UA },
    distinctVisitors: true,
    connections: 100,
    serverEnv: { DOWNLOAD_COUNTING: 'every' },
  },
];
