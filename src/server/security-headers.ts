import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';

/**
 * The headers @fastify/helmet would set, computed once. The plugin rebuilds helmet's middleware
 * from the options on every request (it parsed the CSP directives anew each time: about a sixth
 * of the CPU of a cached API answer); our configuration has no per-request part (no nonces), so
 * the result is the same for every response. Computed by the plugin itself on a throwaway
 * instance, so the values stay exactly helmet's.
 */
export async function staticSecurityHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify({ logger: false });
    if (withHelmet) await probe.register(helmet, options);
    probe.get('/', async () => 'probe');
    const res = await probe.inject({ url: '/' });
    await probe.close();
    return res.headers;
  };
  const plain = await answer(false);
  const secured = await answer(true);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(secured)) {
    if (plain[name] === undefined && typeof value === 'string') headers[name] = value;
  }
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy: check the options');
  return headers;
}

/**
 * The headers for JSON answers under /api: what still means something for a response that is
 * never rendered as a page (OWASP's REST set) — a CSP that allows nothing and no framing, no
 * sniffing, no embedding by other sites, HSTS and the referrer policy. The document-only rest
 * (opener and agent-cluster isolation, DNS prefetch, legacy IE/Flash/XSS-filter switches) would
 * add about 600 bytes to every answer for no effect.
 */
export function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const keep = ['strict-transport-security', 'referrer-policy', 'cross-origin-resource-policy', 'x-content-type-options', 'x-frame-options'];
  const headers: Record<string, string> = { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" };
  for (const name of keep) {
    const value = documentHeaders[name];
    if (value === undefined) throw new Error(`helmet set no ${name}: check the options`);
    headers[name] = value;
  }
  return headers;
}
