/** An OS image VMs can be created with, and the user its cloud image lets in with the VM's SSH keys. */
export interface OperatingSystem {
  id: string;
  name: string;
  /** cloud-init's default user of the image: it gets the SSH keys and sudo without a password */
  loginUser: string;
}

export const OS_CATALOG: readonly OperatingSystem[] = [
  { id: 'ubuntu-24.04', name: 'Ubuntu 24.04 LTS', loginUser: 'ubuntu' },
  { id: 'ubuntu-22.04', name: 'Ubuntu 22.04 LTS', loginUser: 'ubuntu' },
  { id: 'debian-12', name: 'Debian 12', loginUser: 'debian' },
  { id: 'rocky-9', name: 'Rocky Linux 9', loginUser: 'rocky' },
  { id: 'almalinux-9', name: 'AlmaLinux 9', loginUser: 'almalinux' },
];

/** The login user of a VM's OS; null for an OS no longer in the catalog. */
export function loginUserOf(os: string): string | null {
  return OS_CATALOG.find((o) => o.id === os)?.loginUser ?? null;
}
