/**
 * The private-network guard of the web tools: every hop of a request (the first URL and every
 * redirect) is checked before a connection is opened. Only `http:` and `https:` are fetched; the
 * host name is resolved (`dns.lookup`, all addresses) and the hop is refused with a `blocked`
 * {@link WebError} when any address is in a blocked range ({@link blockedRange}). The connection
 * is then pinned to the checked addresses ({@link pinnedLookup}), so a DNS answer that changes
 * between the check and the connect (rebinding) is never used.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { blockedRange, canonicalIp } from './ip-ranges.js';
import { WebError } from './web-errors.js';

/** Resolves a host name to every address (`dns.lookup` with `all: true` by default). */
export type HostResolver = (host: string) => Promise<readonly LookupAddress[]>;

/** How a request treats private addresses. */
export interface NetworkPolicy {
  /** Allow loopback, private, link-local and other internal addresses. Default false. */
  readonly allowPrivateNetwork?: boolean;
  /** Name resolution; default `dns.lookup(host, { all: true })`. */
  readonly resolve?: HostResolver;
}

/** The option that lifts the guard, as named in errors. */
export const ALLOW_PRIVATE_OPTION = 'allowPrivateNetwork';

/** The system's resolver: `dns.lookup(host, { all: true, verbatim: true })`. */
export const systemResolve: HostResolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/**
 * Why `address` is refused: a blocked range, or an address of one of this machine's own network
 * interfaces (a public address the host has reaches its own services, as loopback does).
 */
export function blockedAddress(
  address: string,
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string | undefined {
  const range = blockedRange(address);
  if (range !== undefined) return range;
  const own = canonicalIp(address);
  for (const list of Object.values(interfaces))
    for (const i of list ?? [])
      if (canonicalIp(i.address.replace(/%.*$/, '')) === own)
        return "this machine's own address (a network interface of the host)";
  return undefined;
}

/** Parses `raw` and refuses anything but `http:` / `https:` (kind `invalid`). */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (e) {
    throw new WebError('invalid', `not a URL: '${raw}'`, { url: raw, cause: e });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebError('invalid', `only http and https URLs are fetched, got '${url.protocol}'`, { url: raw });
  return url;
}

/** The host of `url` as a resolver or `isIP` takes it (IPv6 brackets removed). */
export function hostOf(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function refuse(url: URL, host: string, address: string, range: string): never {
  throw new WebError(
    'blocked',
    `refused to connect to ${host}${host === address ? '' : ` (${address})`}: ${range} is a private-network address; set ${ALLOW_PRIVATE_OPTION}: true in the web options to allow it`,
    {
      url: url.href,
      blocked: { host, address, range, option: ALLOW_PRIVATE_OPTION },
    },
  );
}

/**
 * Checks one hop. Returns the addresses the connection must use (`undefined`: no pinning, the
 * private network is allowed). Throws `invalid` for a bad URL or scheme, `blocked` when any
 * address of the host is internal, `transport` when the name does not resolve.
 */
export async function checkHop(url: URL, policy: NetworkPolicy = {}): Promise<readonly LookupAddress[] | undefined> {
  parseWebUrl(url.href);
  if (policy.allowPrivateNetwork === true) return undefined;
  const host = hostOf(url);
  const family = isIP(host);
  if (family !== 0) {
    const range = blockedAddress(host);
    if (range !== undefined) refuse(url, host, host, range);
    return [{ address: host, family }];
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(host);
  } catch (e) {
    throw new WebError('transport', `cannot resolve ${host}: ${e instanceof Error ? e.message : String(e)}`, {
      url: url.href,
      cause: e,
    });
  }
  if (addresses.length === 0)
    throw new WebError('transport', `cannot resolve ${host}: no addresses`, { url: url.href });
  for (const a of addresses) {
    const range = blockedAddress(a.address);
    if (range !== undefined) refuse(url, host, a.address, range);
  }
  return addresses;
}

/** A `lookup` option for `net`/`http` that answers only with `addresses` (already checked). */
export type PinnedLookup = (
  hostname: string,
  options: { readonly all?: boolean; readonly family?: number | string },
  callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Pins a connection to checked addresses: no second DNS query happens at connect time. */
export function pinnedLookup(addresses: readonly LookupAddress[]): PinnedLookup {
  return (_hostname, options, callback) => {
    const want =
      options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((a) => want === 0 || a.family === want);
    if (usable.length === 0) {
      callback(
        Object.assign(new Error(`no IPv${want} address among the checked addresses`), { code: 'ENOTFOUND' }),
        '',
        0,
      );
      return;
    }
    if (options.all === true)
      callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}
