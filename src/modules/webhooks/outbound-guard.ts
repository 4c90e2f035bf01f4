import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Keeps webhook deliveries from becoming a way into the platform's own network (SSRF): only
 * globally routable unicast addresses are allowed, so loopback, private (RFC 1918, unique local),
 * link-local (cloud metadata at 169.254.169.254, fd00:ec2::254), carrier-grade NAT, reserved,
 * multicast and the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) are not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  // IPv6 outside 2000::/3 (where every global unicast address is) is not public, whatever the
  // library calls it: ipaddr.js names the deprecated IPv4-compatible ::a.b.c.d (::7f00:1) 'unicast'
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

/** The host of a URL as an address when it is an IP literal (`[::1]` → `::1`), else undefined. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : undefined;
}

/**
 * A name refused by the guard. Its message is what the customer reads in the attempt log, so it
 * does not say which address the name had: that would let anyone read the platform's internal
 * DNS (`db.internal` → 10.0.3.7) through a webhook endpoint.
 */
export class AddressNotAllowedError extends Error {
  readonly code = 'ADDRESS_NOT_ALLOWED';
  constructor(host: string) {
    super(`${host} has no public address`);
  }
}

const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/** Resolves a host name to every address it has (the system resolver unless a test gives one). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;
export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect (undici's connector passes it on): resolves the name, refuses it
 * when ANY of its addresses is not public, and hands the checked addresses to the socket, which
 * connects to exactly those. There is no second resolution a DNS rebinding could answer
 * differently. (IP literals never reach a lookup: the sender checks them itself.)
 */
export function guardedLookup(resolve: Resolver) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (all) => {
        const refused = all.find((a) => !isPublicAddress(a.address));
        if (refused) return callback(new AddressNotAllowedError(hostname), []);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
        const usable = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
        if (usable.length === 0) return callback(new AddressNotAllowedError(hostname), []);
        if (options.all) return callback(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      // a name that does not resolve answers like one that resolves to a private address: the
      // attempt log does not tell which names exist in the platform's own DNS
      (err: NodeJS.ErrnoException) => callback(NO_SUCH_NAME.has(err.code ?? '') ? new AddressNotAllowedError(hostname) : err, []),
    );
  };
}
