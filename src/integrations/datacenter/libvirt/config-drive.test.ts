import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parseLibvirtConfig } from './config.js';
import { ConfigDrives } from './config-drive.js';
import { noCloudFiles, PLATFORM_MERGE_TYPE, type GuestIdentity } from './guest-config.js';
import { HostAccess } from './host-access.js';

const identity = (userData?: string): GuestIdentity => ({
  reference: 'vm-7',
  instanceId: 'chp-vm-7',
  publicNic: { mac: '52:54:00:00:00:07', address: '198.18.1.7', prefix: 24, gateway: '198.18.1.1' },
  privateMacs: [],
  sshKeys: ['ssh-ed25519 AAAAC3NzaPlatform laptop'],
  ...(userData !== undefined ? { userData } : {}),
});

interface Part {
  headers: Record<string, string>;
  body: string;
}

/** Reads a multipart user-data as cloud-init's MIME parser would: headers, then each part's base64 body. */
function parts(userData: string): { headers: Record<string, string>; parts: Part[] } {
  const headerBlock = (block: string) => Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const [top, rest] = [userData.slice(0, userData.indexOf('\n\n')), userData.slice(userData.indexOf('\n\n') + 2)];
  const headers = headerBlock(top);
  const boundary = /boundary="([^"]+)"/.exec(headers['content-type'] ?? '')?.[1];
  assert.ok(boundary, 'a multipart names its boundary');
  assert.ok(rest.trimEnd().endsWith(`--${boundary}--`), 'the multipart is closed');
  const chunks = rest.split(`--${boundary}`).slice(1, -1);
  return {
    headers,
    parts: chunks.map((chunk) => {
      const c = chunk.replace(/^\n/, '');
      const h = headerBlock(c.slice(0, c.indexOf('\n\n')));
      assert.equal(h['content-transfer-encoding'], 'base64');
      return { headers: h, body: Buffer.from(c.slice(c.indexOf('\n\n') + 2), 'base64').toString('utf8') };
    }),
  };
}

const platformPart = (p: Part) => JSON.parse(p.body.slice('#cloud-config\n'.length)) as { hostname: string; ssh_authorized_keys: string[] };

describe('config drive user-data', () => {
  test('without user data from the customer it is our cloud-config alone', () => {
    const ud = noCloudFiles(identity())['user-data'];
    assert.ok(ud.startsWith('#cloud-config\n'));
    assert.deepEqual(JSON.parse(ud.slice('#cloud-config\n'.length)).ssh_authorized_keys, ['ssh-ed25519 AAAAC3NzaPlatform laptop']);
    assert.equal(noCloudFiles(identity(''))['user-data'], ud, 'empty user data is none');
  });

  test("a customer's cloud-config goes first, unchanged, and ours second with the merge that keeps our keys", () => {
    const theirs = '#cloud-config\nhostname: mine\nssh_authorized_keys:\n  - ssh-ed25519 AAAAmine me@desk\npackages: [nginx]\nruncmd:\n  - echo "héllo ✓ --boundary"\n';
    const mp = parts(noCloudFiles(identity(theirs))['user-data']);
    assert.match(mp.headers['content-type']!, /^multipart\/mixed; /);
    assert.equal(mp.headers['mime-version'], '1.0');
    assert.equal(mp.parts.length, 2);
    const [customer, platform] = mp.parts as [Part, Part];
    assert.match(customer.headers['content-type']!, /^text\/cloud-config; charset="utf-8"$/);
    assert.equal(customer.body, theirs, 'their bytes arrive as they were, UTF-8 included');
    assert.equal(customer.headers['merge-type'], undefined);
    assert.match(platform.headers['content-type']!, /^text\/cloud-config;/);
    assert.equal(platform.headers['merge-type'], PLATFORM_MERGE_TYPE);
    assert.equal(PLATFORM_MERGE_TYPE, 'list(append)+dict(no_replace,recurse_list)+str()');
    assert.deepEqual(platformPart(platform).ssh_authorized_keys, ['ssh-ed25519 AAAAC3NzaPlatform laptop']);
    assert.equal(platformPart(platform).hostname, 'vm-7');
  });

  test("a customer's script is a shell-script part beside our cloud-config", () => {
    const script = '#!/bin/bash\nset -e\necho ok > /root/ok\n';
    const mp = parts(noCloudFiles(identity(script))['user-data']);
    const [customer, platform] = mp.parts as [Part, Part];
    assert.match(customer.headers['content-type']!, /^text\/x-shellscript;/);
    assert.equal(customer.body, script);
    assert.deepEqual(platformPart(platform).ssh_authorized_keys, ['ssh-ed25519 AAAAC3NzaPlatform laptop']);
  });
});

describe('config drive ISO', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'config-drive-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the ISO labelled cidata holds the user-data, meta-data and network-config as written', async () => {
    const config = parseLibvirtConfig({
      prefix: 'cdt',
      images: { 'debian-12': { disk: 'debian-12.qcow2' } },
      locations: { '1': { publicNetwork: '198.18.1.0/24', hypervisors: [{ name: 'local', uri: 'qemu:///system', domainType: 'qemu', imageDir: dir, stateDir: dir, publicBridge: 'br-pub' }] } },
    });
    const access = new HostAccess(config);
    const hv = access.hypervisorList[0]!;
    const drives = new ConfigDrives(access);
    const id = drives.identity(hv.location, 'vm-7', '198.18.1.7', [], ['ssh-ed25519 AAAAC3NzaPlatform laptop'], '#cloud-config\npackages: [nginx]\n');
    const iso = await drives.write(hv, id);
    assert.equal(iso, access.names.configDrive(dir, 'vm-7'));
    const read = (file: string) => execFileSync('isoinfo', ['-R', '-i', iso, '-x', `/${file}`], { encoding: 'utf8' });
    assert.match(execFileSync('isoinfo', ['-d', '-i', iso], { encoding: 'utf8' }), /Volume id: cidata/);
    const expected = noCloudFiles(id);
    assert.equal(read('user-data'), expected['user-data']);
    assert.equal(read('meta-data'), expected['meta-data']);
    assert.equal(read('network-config'), expected['network-config']);
    const mp = parts(read('user-data'));
    assert.equal(mp.parts[0]!.body, '#cloud-config\npackages: [nginx]\n');
    assert.deepEqual(platformPart(mp.parts[1]!).ssh_authorized_keys, ['ssh-ed25519 AAAAC3NzaPlatform laptop']);
  });
});
