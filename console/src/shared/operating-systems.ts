/** The operating systems a VM is created or rebuilt with (the API's `os`). */
export const OPERATING_SYSTEMS = ['ubuntu-24.04', 'ubuntu-22.04', 'debian-12', 'rocky-9', 'almalinux-9'] as const;
export type OperatingSystem = (typeof OPERATING_SYSTEMS)[number];
