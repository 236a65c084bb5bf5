/**
 * `domain:` rules by address. A rule names a host (`WebFetch(domain:evil.example)`), but a fetch
 * reaches an address: `http://203.0.113.7/`, or another name for the same server, would go past a
 * rule judged by name alone. Before each hop connects, every host a deny or ask `domain:` rule
 * names is resolved, and when one has an address the hop reaches, the hop is judged as a fetch of
 * that host (`ToolContext.ruleRefusing`) and refused, naming the rule and the address.
 *
 * A host that does not exist (`ENOTFOUND`) has no address. When a host cannot be resolved for
 * another reason (no DNS, a timeout), whether an address is one of its own cannot be told: a hop
 * to an address written as such is then refused (fail closed); a hop to a name is judged by name.
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { PermissionDeniedError, type ToolContext } from '@a3s-code/core';
import { hostOf, systemResolve, type HostResolver } from './network-guard.js';

/** Judges one hop before it connects; rejects with `PERMISSION_DENIED` to refuse it. */
export type HopJudge = (url: URL, addresses: readonly LookupAddress[] | undefined) => Promise<void>;

// Answers are kept briefly, so a run of fetches does not ask DNS for every rule's host each time.
const TTL_MS = 30_000;
const answers = new Map<string, { readonly at: number; readonly addresses: ReadonlySet<string> }>();
const NO_SUCH_HOST = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME']);

/** One spelling of an address: IPv6 compressed and lower-case, an IPv4-mapped IPv6 address as IPv4. */
export function canonicalAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const v6 = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped === null) return v6;
  const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The addresses of `host`: an empty set when it does not exist; throws when DNS cannot tell. */
async function addressesOf(host: string, resolve: HostResolver): Promise<ReadonlySet<string>> {
  if (isIP(host) !== 0) return new Set([canonicalAddress(host)]);
  const kept = answers.get(host);
  if (kept !== undefined && Date.now() - kept.at < TTL_MS) return kept.addresses;
  let addresses: ReadonlySet<string>;
  try {
    addresses = new Set((await resolve(host)).map((a) => canonicalAddress(a.address)));
  } catch (e) {
    if (!NO_SUCH_HOST.has(String((e as { code?: unknown }).code))) throw e;
    addresses = new Set();
  }
  answers.set(host, { at: Date.now(), addresses });
  return addresses;
}

/**
 * The hop judge of a call (see the module comment), or `undefined` when no `domain:` rule holds
 * the call's tool (or the call is the host's own). `args` are the call's; `resolve` is DNS.
 */
export function ruleAddressJudge(
  ctx: Pick<ToolContext, 'toolName' | 'ruleHosts' | 'ruleRefusing'>,
  args: object,
  resolve: HostResolver = systemResolve,
): HopJudge | undefined {
  const hosts = ctx.ruleHosts;
  const refusing = ctx.ruleRefusing;
  if (hosts === undefined || hosts.length === 0 || refusing === undefined) return undefined;
  return async (url, checked) => {
    const host = hostOf(url).toLowerCase();
    const literal = isIP(host) !== 0;
    let reached: ReadonlySet<string> | undefined;
    for (const held of hosts) {
      if (held === host) continue;
      const named = new URL(url.href);
      named.hostname = held;
      const rule = refusing({ ...args, url: named.href });
      if (rule === undefined) continue;
      let theirs: ReadonlySet<string>;
      try {
        theirs = await addressesOf(held, resolve);
      } catch (e) {
        if (!literal) continue;
        const why = e instanceof Error ? e.message : String(e);
        throw new PermissionDeniedError(
          ctx.toolName,
          `${rule} (cannot tell whether ${host} is an address of ${held}: resolving ${held} failed: ${why})`,
        );
      }
      if (theirs.size === 0) continue;
      reached ??=
        checked !== undefined
          ? new Set(checked.map((a) => canonicalAddress(a.address)))
          : await addressesOf(host, resolve).catch(() => new Set<string>());
      const shared = [...reached].find((a) => theirs.has(a));
      if (shared !== undefined)
        throw new PermissionDeniedError(
          ctx.toolName,
          `${rule} (${literal ? host : `${host} resolves to ${shared}, which`} is an address of ${held})`,
        );
    }
  };
}
