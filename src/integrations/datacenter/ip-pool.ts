/** The usable host addresses of an IPv4 /24../30 block: network, gateway (.1) and broadcast excluded. */
export function usableAddresses(cidr: string): string[] {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) throw new Error(`not an IPv4 CIDR: ${cidr}`);
  const octets = m.slice(1, 5).map(Number);
  const bits = Number(m[5]);
  if (octets.some((o) => o > 255) || bits < 16 || bits > 30) throw new Error(`unsupported CIDR: ${cidr}`);
  const base = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  const size = 2 ** (32 - bits);
  const network = (base & ~(size - 1)) >>> 0;
  const out: string[] = [];
  // .0 network, +1 gateway, last broadcast
  for (let i = 2; i < size - 1; i++) {
    const n = network + i;
    out.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
  }
  return out;
}
