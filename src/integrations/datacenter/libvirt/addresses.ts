/** IPv4 blocks as the libvirt adapter needs them (bridges, DHCP ranges, the balancers' block). */
export interface Cidr {
  base: number;
  prefix: number;
  mask: number;
  size: number;
}

export function ipToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const o = m.slice(1, 5).map(Number);
  if (o.some((x) => x > 255)) return undefined;
  return ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** An IPv4 block aligned on its prefix (8..30), or undefined. */
export function parseCidr(text: string): Cidr | undefined {
  const [ip, bits, extra] = text.split('/');
  if (ip === undefined || bits === undefined || extra !== undefined || !/^\d{1,2}$/.test(bits)) return undefined;
  const base = ipToInt(ip);
  const prefix = Number(bits);
  if (base === undefined || prefix < 8 || prefix > 30) return undefined;
  const size = 2 ** (32 - prefix);
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  if ((base & mask) >>> 0 !== base) return undefined;
  return { base, prefix, mask, size };
}

export const gatewayOf = (c: Cidr): string => intToIp(c.base + 1);
export const netmaskOf = (c: Cidr): string => intToIp(c.mask);
export const cidrText = (c: Cidr): string => `${intToIp(c.base)}/${c.prefix}`;

/** Host addresses a machine may hold: network, gateway (.1) and broadcast excluded. */
export function isHostAddress(c: Cidr, ip: string): boolean {
  const n = ipToInt(ip);
  return n !== undefined && n >= c.base + 2 && n <= c.base + c.size - 2;
}

export function contains(c: Cidr, ip: string): boolean {
  const n = ipToInt(ip);
  return n !== undefined && (n & c.mask) >>> 0 === c.base;
}

/** Every address of the block, network and broadcast included. */
export function allAddresses(c: Cidr): string[] {
  return Array.from({ length: c.size }, (_, i) => intToIp(c.base + i));
}
