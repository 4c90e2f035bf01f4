/**
 * How a guest learns who it is: its name, its public address and its SSH keys.
 * - A real cloud image reads a NoCloud config drive (an ISO labelled `cidata` with meta-data,
 *   user-data and network-config), as cloud-init does on Debian, Ubuntu, Rocky and Alma images.
 * - The test image (direct kernel boot) reads words of its kernel command line.
 * Private-network addresses reach both through DHCP: the network's dnsmasq holds a reservation
 * for each NIC's MAC.
 */

export interface GuestIdentity {
  reference: string;
  instanceId: string;
  /** the public NIC, when the VM has a public address */
  publicNic: { mac: string; address: string; prefix: number; gateway: string } | null;
  /** NICs on private networks, configured by DHCP */
  privateMacs: string[];
  sshKeys: string[];
  /** the customer's cloud-init user data (a `#cloud-config` or a `#!` script); real images only */
  userData?: string | null;
}

const KEY = /^(ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) ([A-Za-z0-9+/]+={0,3})(?: [^\n\r]*)?$/;

/** The key's type and base64 blob, or undefined when it is not an OpenSSH public key line. */
export function parseSshKey(line: string): { type: string; blob: string } | undefined {
  const m = KEY.exec(line.trim());
  return m ? { type: m[1]!, blob: m[2]! } : undefined;
}

/** The kernel's command line is at most 2048 bytes on x86; leave room for the image's own words. */
export const MAX_CMDLINE = 2000;

/** Kernel command line words of the test image (see scripts/build-guest-image.sh). */
export function kernelCommandLine(id: GuestIdentity, extra = ''): string {
  const words = ['console=ttyS0', 'panic=-1', 'quiet', `guest.name=${id.reference}`];
  if (id.publicNic) {
    const p = id.publicNic;
    words.push(`guest.mac=${p.mac}`, `guest.ip=${p.address}/${p.prefix}`, `guest.gw=${p.gateway}`);
  }
  const keys = id.sshKeys.map((k) => parseSshKey(k)).filter((k) => k !== undefined);
  if (keys.length > 0) words.push(`guest.keys=${keys.map((k) => `${k.type}:${k.blob}`).join(',')}`);
  if (extra.trim()) words.push(extra.trim());
  return words.join(' ');
}

/**
 * How our part of the user data joins the customer's cloud-config: their keys stay theirs (a value
 * they set is kept), lists are appended to (our SSH keys join theirs), mappings merge key by key.
 */
export const PLATFORM_MERGE_TYPE = 'list(append)+dict(no_replace,recurse_list)+str()';
/** Never found in a part: both parts are base64, whose lines cannot start with "--". */
const BOUNDARY = '==cloud-platform-user-data==';

function base64Lines(text: string): string {
  return (Buffer.from(text, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join('\n');
}

/**
 * The drive's user-data: our cloud-config alone, or, when the customer gave user data, a MIME
 * multipart of theirs (a cloud-config or a script) first and ours second, merged by cloud-init as
 * PLATFORM_MERGE_TYPE says, so their cloud-config never drops our keys, name or network settings.
 */
export function userDataFile(platform: string, customer: string | null | undefined): string {
  if (!customer) return platform;
  const part = (type: string, filename: string, body: string, extra: string[] = []) =>
    [`--${BOUNDARY}`, `Content-Type: ${type}; charset="utf-8"`, 'MIME-Version: 1.0', 'Content-Transfer-Encoding: base64', `Content-Disposition: attachment; filename="${filename}"`, ...extra, '', base64Lines(body)].join('\n');
  return (
    [
      `Content-Type: multipart/mixed; boundary="${BOUNDARY}"`,
      'MIME-Version: 1.0',
      '',
      part(customer.startsWith('#!') ? 'text/x-shellscript' : 'text/cloud-config', customer.startsWith('#!') ? 'customer-script' : 'customer-cloud-config', customer),
      part('text/cloud-config', 'platform-cloud-config', platform, [`Merge-Type: ${PLATFORM_MERGE_TYPE}`]),
      `--${BOUNDARY}--`,
    ].join('\n') + '\n'
  );
}

/** The three files of a NoCloud drive. YAML accepts JSON, so the documents are written as JSON. */
export function noCloudFiles(id: GuestIdentity): { 'meta-data': string; 'user-data': string; 'network-config': string } {
  const ethernets: Record<string, unknown> = {};
  if (id.publicNic) {
    const p = id.publicNic;
    ethernets.public = {
      match: { macaddress: p.mac },
      addresses: [`${p.address}/${p.prefix}`],
      // Debian 12's cloud-init (22.4) takes `to: default` only for netplan; its networkd, eni and sysconfig renderers refuse it
      routes: [{ to: '0.0.0.0/0', via: p.gateway }],
    };
  }
  id.privateMacs.forEach((mac, i) => {
    ethernets[`private${i}`] = { match: { macaddress: mac }, dhcp4: true, 'dhcp4-overrides': { 'use-routes': false, 'use-dns': false } };
  });
  const platform =
    '#cloud-config\n' +
    JSON.stringify(
      {
        hostname: id.reference,
        ssh_authorized_keys: id.sshKeys,
        // apply the network configuration at every boot (addresses attached while it was off)
        updates: { network: { when: ['boot', 'hotplug'] } },
      },
      null,
      2,
    ) +
    '\n';
  return {
    'meta-data': JSON.stringify({ 'instance-id': id.instanceId, 'local-hostname': id.reference }, null, 2) + '\n',
    'user-data': userDataFile(platform, id.userData),
    'network-config': JSON.stringify({ version: 2, ethernets }, null, 2) + '\n',
  };
}
