import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Host, HostCommandError } from './host.js';

// the local host runs the same argv a remote one runs after `ssh host --` (backups read and write disks this way)
const host = new Host('qemu:///system');

test('bytes in and out of host commands: a binary write at an offset of a sparse file, a streamed read of a range', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'host-bytes-'));
  try {
    const file = path.join(dir, 'disk.raw');
    await host.run(['truncate', '-s', String(16 * 1024 * 1024), file]);
    const data = Buffer.concat([randomBytes(3 * 1024 * 1024), Buffer.from([0xff, 0xfe, 0x00, 0x80])]);
    await host.run(['dd', `of=${file}`, 'bs=1M', `seek=${4 * 1024 * 1024}`, 'oflag=seek_bytes', 'iflag=fullblock', 'conv=notrunc', 'status=none'], { input: data });
    assert.equal(statSync(file).size, 16 * 1024 * 1024, 'the file keeps its size');
    assert.ok(readFileSync(file).subarray(4 * 1024 * 1024, 4 * 1024 * 1024 + data.length).equals(data), 'every byte written as it was (not as text)');

    const read: Buffer[] = [];
    for await (const chunk of host.stream(['dd', `if=${file}`, `bs=${1024 * 1024}`, 'skip=4', 'count=4', 'iflag=fullblock', 'status=none'])) read.push(chunk);
    const got = Buffer.concat(read);
    assert.equal(got.length, 4 * 1024 * 1024);
    assert.ok(got.subarray(0, data.length).equals(data));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a streamed command that fails is a HostCommandError with its message, after what it printed', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'host-bytes-'));
  try {
    writeFileSync(path.join(dir, 'x'), 'abc');
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of host.stream(['sh', '-c', 'cat "$1"; echo broken >&2; exit 3', 'sh', path.join(dir, 'x')])) seen.push(chunk.toString());
      })(),
      (e: unknown) => e instanceof HostCommandError && e.code === 3 && /broken/.test(e.stderr),
    );
    assert.equal(seen.join(''), 'abc');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
