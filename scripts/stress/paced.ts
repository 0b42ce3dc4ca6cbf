import http from 'node:http';

export interface PacedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
}

export interface PacedResult {
  sent: number;
  ok: number;
  /** Non-2xx answers and socket errors. */
  failed: number;
  /** Milliseconds from each request's scheduled start to the end of its answer. */
  latency: { p50: number; p99: number; max: number };
  seconds: number;
}

/**
 * Open-loop load: requests start on a fixed schedule (rate per second, evenly spaced), whatever the
 * server's answers do, over keep-alive connections. Latency counts from the scheduled start, so a
 * stall shows in every request it delays (no coordinated omission). autocannon's `overallRate`
 * instead lets each connection send back to back until it has made its share of the second, then
 * waits for the next second: bursts of the whole second's requests at full concurrency.
 */
export async function pacedLoad(base: string, requests: PacedRequest[], rate: number, seconds: number): Promise<PacedResult> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  let ok = 0;
  let failed = 0;
  let done = 0;
  const t0 = performance.now();

  const send = (i: number, scheduled: number) => {
    const r = requests[i % requests.length];
    const req = http.request(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => {
          latencies[i] = performance.now() - scheduled;
          if (res.statusCode !== undefined && res.statusCode < 300) ok++;
          else failed++;
          done++;
        });
      },
    );
    req.on('error', () => {
      latencies[i] = performance.now() - scheduled;
      failed++;
      done++;
    });
    req.end();
  };

  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Everything whose start time has come (a late tick catches up, timed from its schedule).
      while (next < total && t0 + (next * 1000) / rate <= now) {
        send(next, t0 + (next * 1000) / rate);
        next++;
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  while (done < total) await new Promise((r) => setTimeout(r, 5));
  agent.destroy();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1));
  return { sent: total, ok, failed, latency: { p50: at(0.5), p99: at(0.99), max: Number(sorted[sorted.length - 1].toFixed(1)) }, seconds: (performance.now() - t0) / 1000 };
}
