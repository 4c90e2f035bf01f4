import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { parseCidr, type Cidr } from './addresses.js';
import { sshCommand } from './host.js';

const AbsolutePath = Type.String({ pattern: '^/[^\\0]*$', description: 'an absolute path' });
const Cidr4 = Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}$', description: 'an IPv4 block, e.g. 198.18.1.0/24' });
const Ipv4 = Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,3}){3}$' });
const LinkName = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,14}$', description: 'a network interface name (at most 15 characters)' });

const HypervisorSchema = Type.Object(
  {
    /** how operators and the hypervisors() report name it */
    name: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$' }),
    /**
     * qemu:///system on the machine the service runs on, qemu+ssh://[user@]host[:port]/system
     * elsewhere, optionally with libvirt's ?keyfile=<path>&no_verify=1&no_tty=1
     */
    uri: Type.String({ pattern: '^qemu:///system$|^qemu\\+ssh://[^/?\\s]+/system(\\?\\S*)?$' }),
    /** kvm on real hypervisors; qemu (TCG emulation) where KVM is missing or does not work */
    domainType: Type.Union([Type.Literal('kvm'), Type.Literal('qemu')]),
    /** boot disks, data disks and config drives of the VMs (and relative image paths) */
    imageDir: AbsolutePath,
    /** console logs, dnsmasq and HAProxy files, the firewall's desired state */
    stateDir: AbsolutePath,
    /** the host bridge carrying the public addresses of this location */
    publicBridge: LinkName,
    /** the host holds the public network's gateway (.1) on publicBridge (false: an upstream router does) */
    hostGateway: Type.Optional(Type.Boolean()),
    /** this host's address on the network between hypervisors: private networks span hosts over VXLAN from it */
    underlayAddress: Type.Optional(Ipv4),
    /** sellable capacity (default: the host's CPUs and memory as libvirt reports them) */
    vcpus: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    memoryMb: Type.Optional(Type.Integer({ minimum: 64, maximum: 1_000_000_000 })),
    /** data disks as LVM logical volumes in this volume group instead of qcow2 files */
    volumeGroup: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.+-]{0,126}$' })),
  },
  { additionalProperties: false },
);

const LocationSchema = Type.Object(
  {
    /** the public network on the hypervisors' public bridges; its .1 is the gateway */
    publicNetwork: Cidr4,
    /** a block inside publicNetwork kept for load balancers (VMs never get these addresses) */
    loadBalancerAddresses: Type.Optional(Cidr4),
    /**
     * What happens to guests' traffic that leaves the public network through the host: none (dropped:
     * the host routes nothing), routed (forwarded; the upstream routes the pool to this host) or nat
     * (masqueraded behind the host's own address).
     */
    publicEgress: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('routed'), Type.Literal('nat')])),
    hypervisors: Type.Array(HypervisorSchema, { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);

const ImageSchema = Type.Object(
  {
    /** the qcow2 image each VM's boot disk overlays (absolute, or relative to the hypervisor's imageDir) */
    disk: Type.String({ minLength: 1, pattern: '^[^\\0]+\\.qcow2$' }),
    /** direct kernel boot (the test image): settings go on the kernel command line, not on a NoCloud drive */
    kernel: Type.Optional(Type.String({ minLength: 1 })),
    initrd: Type.Optional(Type.String({ minLength: 1 })),
    /** extra kernel command line words (direct kernel boot) */
    cmdline: Type.Optional(Type.String({ maxLength: 1000 })),
    /** a regular expression: the guest is up once its serial console prints a match */
    readyPattern: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);

const RescueSchema = Type.Object(
  {
    /** the rescue system boots by direct kernel boot (it runs from its initrd); the VM's disks are attached as they are */
    kernel: Type.String({ minLength: 1 }),
    initrd: Type.String({ minLength: 1 }),
    /** extra kernel command line words (the adapter adds the VM's name, public address and SSH keys) */
    cmdline: Type.Optional(Type.String({ maxLength: 1000 })),
    /** a regular expression: the rescue system is up once the serial console prints a match */
    readyPattern: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const LibvirtConfigSchema = Type.Object(
  {
    /** names everything the adapter makes (domains, disks, bridges, namespaces, nftables tables, files) */
    prefix: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9]{1,3}$', description: '2 to 4 lower-case letters or digits' })),
    bootTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    shutdownTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
    /** per OS name of the API (e.g. debian-12) */
    images: Type.Record(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' }), ImageSchema),
    /** the rescue system VMs boot in rescue mode; without it rescue is refused */
    rescue: Type.Optional(RescueSchema),
    /** per location id */
    locations: Type.Record(Type.String({ pattern: '^[1-9][0-9]{0,9}$' }), LocationSchema),
  },
  { additionalProperties: false },
);

export type LibvirtConfigInput = Static<typeof LibvirtConfigSchema>;
export type HypervisorConfig = Static<typeof HypervisorSchema> & { hostGateway: boolean };
export type ImageConfig = Static<typeof ImageSchema>;
export type RescueConfig = Static<typeof RescueSchema>;

export interface LocationConfig {
  id: number;
  publicNetwork: Cidr;
  loadBalancerAddresses: Cidr | null;
  publicEgress: 'none' | 'routed' | 'nat';
  hypervisors: HypervisorConfig[];
}

export interface LibvirtConfig {
  prefix: string;
  bootTimeoutSeconds: number;
  shutdownTimeoutSeconds: number;
  images: Record<string, ImageConfig>;
  rescue?: RescueConfig;
  locations: Map<number, LocationConfig>;
}

/** A configuration that cannot be used: `path` is the JSON pointer of the bad value. */
export class LibvirtConfigError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path || '/'} ${problem}`);
    this.name = 'LibvirtConfigError';
  }
}

/** Validates a parsed configuration; the first problem is thrown with the path of the value. */
export function parseLibvirtConfig(raw: unknown): LibvirtConfig {
  if (!Value.Check(LibvirtConfigSchema, raw)) {
    const first = [...Value.Errors(LibvirtConfigSchema, raw)][0];
    const where = first?.instancePath ?? '';
    const detail = first?.params && 'additionalProperties' in first.params ? `: ${JSON.stringify(first.params.additionalProperties)}` : '';
    throw new LibvirtConfigError(where, `${first?.message ?? 'is invalid'}${detail}`);
  }
  const input = raw;
  const locations = new Map<number, LocationConfig>();
  const hypervisorNames = new Set<string>();
  const bridgesSeen = new Set<string>();
  for (const [key, loc] of Object.entries(input.locations)) {
    const at = `/locations/${key}`;
    const publicNetwork = cidrAt(`${at}/publicNetwork`, loc.publicNetwork);
    if (publicNetwork.prefix > 29) throw new LibvirtConfigError(`${at}/publicNetwork`, 'must hold at least a /29');
    let lb: Cidr | null = null;
    if (loc.loadBalancerAddresses !== undefined) {
      lb = cidrAt(`${at}/loadBalancerAddresses`, loc.loadBalancerAddresses);
      const inside = lb.prefix >= publicNetwork.prefix && (lb.base & publicNetwork.mask) >>> 0 === publicNetwork.base;
      if (!inside) throw new LibvirtConfigError(`${at}/loadBalancerAddresses`, `must lie inside publicNetwork ${loc.publicNetwork}`);
      if (lb.base === publicNetwork.base) throw new LibvirtConfigError(`${at}/loadBalancerAddresses`, 'must not start at the network address');
    }
    const hypervisors = loc.hypervisors.map((h, i) => {
      try {
        sshCommand(h.uri);
      } catch (err) {
        throw new LibvirtConfigError(`${at}/hypervisors/${i}/uri`, (err as Error).message);
      }
      if (hypervisorNames.has(h.name)) throw new LibvirtConfigError(`${at}/hypervisors/${i}/name`, `"${h.name}" is used twice`);
      hypervisorNames.add(h.name);
      const bridgeKey = `${h.uri.replace(/\?.*/, '')} ${h.publicBridge}`;
      if (bridgesSeen.has(bridgeKey)) throw new LibvirtConfigError(`${at}/hypervisors/${i}/publicBridge`, `"${h.publicBridge}" on ${h.uri} already serves another location`);
      bridgesSeen.add(bridgeKey);
      return { ...h, hostGateway: h.hostGateway ?? true };
    });
    locations.set(Number(key), { id: Number(key), publicNetwork, loadBalancerAddresses: lb, publicEgress: loc.publicEgress ?? 'none', hypervisors });
  }
  for (const [os, image] of Object.entries(input.images)) {
    if ((image.kernel === undefined) !== (image.initrd === undefined)) throw new LibvirtConfigError(`/images/${os}`, 'kernel and initrd go together');
    if (image.readyPattern !== undefined) {
      try {
        new RegExp(image.readyPattern);
      } catch {
        throw new LibvirtConfigError(`/images/${os}/readyPattern`, 'is not a regular expression');
      }
    }
  }
  if (input.rescue?.readyPattern !== undefined) {
    try {
      new RegExp(input.rescue.readyPattern);
    } catch {
      throw new LibvirtConfigError('/rescue/readyPattern', 'is not a regular expression');
    }
  }
  return {
    prefix: input.prefix ?? 'chp',
    bootTimeoutSeconds: input.bootTimeoutSeconds ?? 300,
    shutdownTimeoutSeconds: input.shutdownTimeoutSeconds ?? 60,
    images: input.images,
    ...(input.rescue ? { rescue: input.rescue } : {}),
    locations,
  };
}

/** Reads and validates the JSON file named by LIBVIRT_CONFIG. */
export function loadLibvirtConfig(file: string): LibvirtConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new LibvirtConfigError('', `cannot be read from ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new LibvirtConfigError('', `${file} is not JSON: ${(err as Error).message}`);
  }
  return parseLibvirtConfig(raw);
}

function cidrAt(path: string, value: string): Cidr {
  const c = parseCidr(value);
  if (!c) throw new LibvirtConfigError(path, `"${value}" is not an IPv4 block aligned on its prefix`);
  return c;
}
