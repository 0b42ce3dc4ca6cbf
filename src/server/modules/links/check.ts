import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net, { BlockList } from 'node:net';

/**
 * Checks one external link the way a visitor's browser would reach it (issue 32, link checks):
 * HEAD, then a one-byte ranged GET where HEAD is refused; at most `maxRedirects` redirects; one
 * deadline for the whole check. It never connects to a loopback, private, link-local, metadata or
 * otherwise reserved address unless `allowPrivate`: the host's addresses are checked after DNS
 * resolution, the connection goes to the address checked (no second lookup a rebinding DNS server
 * could answer differently), and every redirect is checked again.
 */
export interface LinkCheckOptions {
  /** LINK_CHECK_ALLOW_PRIVATE: reach private addresses too (tests, intranets). */
  allowPrivate: boolean;
  /** One private address allowed where the rest are not (tests: their own server, on 127.0.0.1). */
  allowAddress?: (address: string) => boolean;
  timeoutMs: number;
  maxRedirects: number;
  /**
   * Called before each request (redirects and the ranged GET too), to space requests to one host
   * (the job's one request a second per host). Its wait is not counted in the deadline.
   */
  beforeRequest?: (url: URL) => Promise<void>;
}

export const LINK_CHECK_DEFAULTS: LinkCheckOptions = { allowPrivate: false, timeoutMs: 10_000, maxRedirects: 5 };

export type LinkCheckResult = { state: 'ok'; status: number; url: string } | { state: 'broken'; status: number | null; reason: string };

const USER_AGENT = 'ResourceVault-LinkCheck/1 (link health of this site)';

/** Addresses a link check never reaches (RFC 6890 special-purpose ranges, cloud metadata among them). */
const RESERVED = (() => {
  const list = new BlockList();
  for (const [net4, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(net4, bits, 'ipv4');
  }
  for (const [net6, bits] of [
    ['::', 127], // :: and ::1
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(net6, bits, 'ipv6');
  }
  return list;
})();

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::) or 6to4 address, if any. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/i.exec(address);
  if (sixToFour) {
    const [hi, lo] = [parseInt(sixToFour[1]!, 16), parseInt(sixToFour[2]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** Whether a link check may connect to `address` (an IP literal) when private addresses are not allowed. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !RESERVED.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !RESERVED.check(address, 'ipv6');
}

class Refused extends Error {}

/** The address to connect to for `host`: checked, resolved once. */
async function resolveChecked(host: string, options: LinkCheckOptions): Promise<{ address: string; family: number }> {
  const literal = host.replace(/^\[|\]$/g, '');
  const family = net.isIP(literal);
  const addresses = family ? [{ address: literal, family }] : await dnsLookup(host, { all: true, verbatim: true }).catch(() => []);
  if (addresses.length === 0) throw new Refused(`The host ${host} was not found`);
  if (!options.allowPrivate) {
    const reserved = addresses.find((a) => !isPublicAddress(a.address) && !options.allowAddress?.(a.address));
    if (reserved) throw new Refused(`The host ${host} is a private or reserved address (${reserved.address}), which link checks do not reach`);
  }
  return addresses[0]!;
}

interface Answer {
  status: number;
  location: string | undefined;
}

function request(url: URL, method: 'HEAD' | 'GET', target: { address: string; family: number }, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method,
        signal,
        headers: { 'user-agent': USER_AGENT, accept: '*/*', ...(method === 'GET' ? { range: 'bytes=0-0' } : {}) },
        // The connection goes to the address checked, never to a second lookup's answer.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          else callback(null, target.address, target.family);
        },
        // A link on a shared host names that host (SNI) while connecting to the address checked.
        servername: net.isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
        agent: false,
      },
      (res) => {
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
        // One byte at most was asked for; nothing of the body is needed.
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** HEAD refused or not understood: ask for one byte instead. */
const HEAD_REFUSED = new Set([400, 403, 404, 405, 406, 500, 501]);

function failure(err: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (err instanceof Refused) return err.message;
  if (signal.aborted) return `No answer within ${Number((timeoutMs / 1000).toFixed(1))} s`;
  const code = (err as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'The server refused the connection';
  if (code === 'ECONNRESET') return 'The server closed the connection';
  if (code && /^ERR_TLS|CERT|SSL/.test(code)) return `The server’s certificate is not valid (${code})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The host was not found';
  return `The link could not be reached${code ? ` (${code})` : ''}`;
}

/** A deadline that can be paused (while a request waits for its turn at a host). */
function pausableDeadline(ms: number) {
  const controller = new AbortController();
  let left = ms;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const resume = () => {
    since = Date.now();
    timer = setTimeout(() => controller.abort(), Math.max(0, left));
  };
  const pause = () => {
    clearTimeout(timer);
    left -= Date.now() - since;
  };
  resume();
  return { signal: controller.signal, pause, resume, stop: () => clearTimeout(timer) };
}

/** Checks `link`; never throws for what the far end does. */
export async function checkLink(link: string, options: LinkCheckOptions = LINK_CHECK_DEFAULTS): Promise<LinkCheckResult> {
  const deadline = pausableDeadline(options.timeoutMs);
  try {
    return await checkWithin(link, options, deadline);
  } finally {
    deadline.stop();
  }
}

async function checkWithin(link: string, options: LinkCheckOptions, deadline: ReturnType<typeof pausableDeadline>): Promise<LinkCheckResult> {
  const { signal } = deadline;
  const send = async (url: URL, method: 'HEAD' | 'GET', target: { address: string; family: number }) => {
    if (options.beforeRequest) {
      deadline.pause();
      try {
        await options.beforeRequest(url);
      } finally {
        deadline.resume();
      }
    }
    return request(url, method, target, signal);
  };
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { state: 'broken', status: null, reason: 'Not a valid URL' };
  }
  try {
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { state: 'broken', status: null, reason: `Links must be http(s), not ${url.protocol.replace(/:$/, '')}` };
      if (url.username || url.password) return { state: 'broken', status: null, reason: 'Links must not carry a user name or password' };
      const target = await resolveChecked(url.hostname, options);
      let answer = await send(url, 'HEAD', target);
      if (HEAD_REFUSED.has(answer.status)) answer = await send(url, 'GET', target);
      if (REDIRECTS.has(answer.status) && answer.location) {
        if (redirects >= options.maxRedirects) return { state: 'broken', status: answer.status, reason: `More than ${options.maxRedirects} redirects` };
        url = new URL(answer.location, url);
        continue;
      }
      if (answer.status >= 200 && answer.status < 400) return { state: 'ok', status: answer.status, url: url.toString() };
      return { state: 'broken', status: answer.status, reason: `The server answered ${answer.status}${http.STATUS_CODES[answer.status] ? ` ${http.STATUS_CODES[answer.status]}` : ''}` };
    }
  } catch (err) {
    return { state: 'broken', status: null, reason: failure(err, signal, options.timeoutMs) };
  }
}
