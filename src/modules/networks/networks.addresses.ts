/**
 * Pure IPv4 rules of private networks (docs/decisions.md §6): where a customer's new network goes inside
 * 10.0.0.0/8, and which host address an assignment gets. No I/O: the service calls these under
 * its locks, the unit tests beside this file pin them.
 */

/** The block every private network is carved from. */
export const PRIVATE_SPACE = { base: '10.0.0.0', prefix: 8 } as const;
export const MIN_PREFIX = 16;
export const MAX_PREFIX = 24;

export function ipToInt(ip: string): number {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) throw new Error(`not an IPv4 address: ${ip}`);
  const o = m.slice(1, 5).map(Number);
  if (o.some((x) => x > 255)) throw new Error(`not an IPv4 address: ${ip}`);
  return ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Addresses in a block of this prefix length. */
export function blockSize(prefix: number): number {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`bad prefix length: ${prefix}`);
  return 2 ** (32 - prefix);
}

export interface Block {
  networkIp: string;
  cidr: number;
}

/** [first, last] address of a block, as integers. */
export function rangeOf(b: Block): [number, number] {
  const size = blockSize(b.cidr);
  const first = ipToInt(b.networkIp);
  if (first % size !== 0) throw new Error(`${b.networkIp}/${b.cidr} is not aligned on its prefix`);
  return [first, first + size - 1];
}

export function overlaps(a: Block, b: Block): boolean {
  const [a0, a1] = rangeOf(a);
  const [b0, b1] = rangeOf(b);
  return a0 <= b1 && b0 <= a1;
}

/**
 * The lowest block of `/cidr` inside 10.0.0.0/8 that overlaps none of `existing` (the customer's
 * other networks), or null when the space is full. Blocks are aligned on their size, so
 * 10.0.1.0/24 follows 10.0.0.0/24 and a /16 after them starts at 10.1.0.0.
 */
export function allocateNetwork(existing: readonly Block[], cidr: number): string | null {
  if (!Number.isInteger(cidr) || cidr < PRIVATE_SPACE.prefix || cidr > 30) throw new Error(`bad prefix length: ${cidr}`);
  const size = blockSize(cidr);
  const [spaceStart, spaceEnd] = rangeOf({ networkIp: PRIVATE_SPACE.base, cidr: PRIVATE_SPACE.prefix });
  const taken = existing.map(rangeOf).sort((x, y) => x[0] - y[0]);
  let candidate = spaceStart;
  while (candidate + size - 1 <= spaceEnd) {
    const end = candidate + size - 1;
    const hit = taken.find(([s, e]) => s <= end && candidate <= e);
    if (!hit) return intToIp(candidate);
    // jump past the block in the way, to the next aligned start
    candidate = Math.ceil((hit[1] + 1) / size) * size;
  }
  return null;
}

/** The gateway of a network: its first address after the network address (.1). */
export function gatewayOf(b: Block): string {
  return intToIp(rangeOf(b)[0] + 1);
}

/** Host addresses a network can hand out: all but the network, gateway and broadcast addresses. */
export function hostCapacity(cidr: number): number {
  return Math.max(0, blockSize(cidr) - 3);
}

/** Is `ip` a host address of the network (not network, gateway or broadcast)? */
export function isHostAddress(b: Block, ip: string): boolean {
  const [first, last] = rangeOf(b);
  const n = ipToInt(ip);
  return n >= first + 2 && n <= last - 1;
}

/**
 * The lowest free host address of the network: skips the network address, the gateway (.1), the
 * broadcast address and every address in `taken`; null when the network is full.
 */
export function allocateHost(b: Block, taken: ReadonlySet<string>): string | null {
  const [first, last] = rangeOf(b);
  for (let n = first + 2; n <= last - 1; n++) {
    const ip = intToIp(n);
    if (!taken.has(ip)) return ip;
  }
  return null;
}

/** Where a host sits on the network diagram (pos_x, pos_y): rows of 8, by its place in the network. */
export function diagramPosition(b: Block, ip: string): { x: number; y: number } {
  const index = ipToInt(ip) - rangeOf(b)[0] - 2;
  return { x: 100 + (index % 8) * 120, y: 220 + Math.floor(index / 8) * 120 };
}
