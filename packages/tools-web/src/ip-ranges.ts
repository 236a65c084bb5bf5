/**
 * Address ranges the web tools never connect to by default: loopback, private, link-local
 * (cloud metadata), carrier-grade NAT, benchmarking (198.18/15), unique-local and site-local IPv6, multicast, reserved and
 * unspecified addresses. IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-compatible `::a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`) are judged by that IPv4 address; local-use NAT64 `64:ff9b:1::/48` is blocked.
 */
import { isIPv4, isIPv6 } from 'node:net';

interface V4Range {
  readonly base: number;
  readonly bits: number;
  readonly name: string;
}

const v4 = (cidr: string, name: string): V4Range => {
  const [ip, bits] = cidr.split('/') as [string, string];
  return { base: parseV4(ip)!, bits: Number(bits), name };
};

/** Blocked IPv4 ranges, with the name reported in errors. */
const V4_BLOCKED: readonly V4Range[] = [
  v4('0.0.0.0/8', 'unspecified (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'private (10.0.0.0/8)'),
  v4('100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'),
  v4('127.0.0.0/8', 'loopback (127.0.0.0/8)'),
  v4('169.254.0.0/16', 'link-local (169.254.0.0/16, cloud metadata)'),
  v4('172.16.0.0/12', 'private (172.16.0.0/12)'),
  v4('192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'),
  v4('192.0.2.0/24', 'documentation (192.0.2.0/24)'),
  v4('198.51.100.0/24', 'documentation (198.51.100.0/24)'),
  v4('203.0.113.0/24', 'documentation (203.0.113.0/24)'),
  v4('192.168.0.0/16', 'private (192.168.0.0/16)'),
  v4('198.18.0.0/15', 'benchmarking (198.18.0.0/15)'),
  v4('224.0.0.0/4', 'multicast (224.0.0.0/4)'),
  v4('240.0.0.0/4', 'reserved (240.0.0.0/4)'),
];

function parseV4(ip: string): number | undefined {
  if (!isIPv4(ip)) return undefined;
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4(n: number, r: V4Range): boolean {
  const size = 2 ** (32 - r.bits);
  return Math.floor(n / size) === Math.floor(r.base / size);
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or `undefined`. */
function parseV6(raw: string): number[] | undefined {
  const ip = raw.split('%')[0]!;
  if (!isIPv6(ip)) return undefined;
  let text = ip;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = parseV4(dotted[1]!)!;
    tail.push(Math.floor(n / 65536), n % 65536);
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const fill = 8 - left.length - right.length - tail.length;
  return [...left, ...Array<number>(rest === undefined ? 0 : fill).fill(0), ...right, ...tail];
}

/** The IPv4 address two IPv6 groups carry. */
const embedded = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

function v6Range(g: readonly number[]): string | undefined {
  const zeroUpTo = (k: number) => g.slice(0, k).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified (::)';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback (::1)';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64): the IPv4 decides.
  if (zeroUpTo(5) && g[5] === 0xffff) return v4Range(embedded(g[6]!, g[7]!), 'IPv4-mapped');
  if (zeroUpTo(6)) return v4Range(embedded(g[6]!, g[7]!), 'IPv4-compatible');
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765) is judged by its IPv4 address too.
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return v4Range(embedded(g[6]!, g[7]!), 'IPv4-translated');
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return v4Range(embedded(g[6]!, g[7]!), 'NAT64');
  // 64:ff9b:1::/48 is a local-use NAT64 prefix (RFC 8215): it translates into the site's own IPv4 network.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'local-use NAT64 (64:ff9b:1::/48)';
  if (g[0] === 0x2002) return v4Range(embedded(g[1]!, g[2]!), '6to4');
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'unique-local (fc00::/7)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((first & 0xffc0) === 0xfec0) return 'site-local (fec0::/10)';
  if ((first & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  if (first === 0x2001 && g[1] === 0xdb8) return 'documentation (2001:db8::/32)';
  return undefined;
}

function v4Range(ip: string, via?: string): string | undefined {
  const n = parseV4(ip);
  if (n === undefined) return undefined;
  const hit = V4_BLOCKED.find((r) => inV4(n, r));
  return hit === undefined ? undefined : via === undefined ? hit.name : `${via} ${hit.name}`;
}

/**
 * One spelling of an IP literal for comparing addresses: IPv4 as dotted decimal, an IPv6 address
 * that carries an IPv4 one (mapped, compatible) as that IPv4 address, other IPv6 as eight
 * lower-case hex groups; `undefined` for a string that is not an IP address.
 */
export function canonicalIp(address: string): string | undefined {
  if (isIPv4(address)) return parseV4(address) === undefined ? undefined : address.split('.').map(Number).join('.');
  const g = parseV6(address);
  if (g === undefined) return undefined;
  const zeroUpTo = (k: number) => g.slice(0, k).every((x) => x === 0);
  if ((zeroUpTo(5) && g[5] === 0xffff) || (zeroUpTo(6) && !zeroUpTo(8))) return embedded(g[6]!, g[7]!);
  return g.map((x) => x.toString(16)).join(':');
}

/**
 * The blocked range `address` (an IPv4 or IPv6 literal, without brackets) falls in, e.g.
 * `loopback (127.0.0.0/8)`, or `undefined` for a public address. A string that is not an IP
 * address is reported as `not an IP address` (refused: the guard never guesses).
 */
export function blockedRange(address: string): string | undefined {
  if (isIPv4(address)) return v4Range(address);
  const g = parseV6(address);
  return g === undefined ? 'not an IP address' : v6Range(g);
}
