import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import type { DiskCopy, DiskPiece } from '../../integrations/datacenter/index.js';
import type { BlobStore } from '../../integrations/object-storage/index.js';

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);

/** The fixed size of a chunk of disk (the last may be shorter). */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** What a backup is: written last, so a backup exists exactly when its manifest does. */
export interface Manifest {
  version: 1;
  id: string;
  vm_id: number;
  created_at: string;
  disk_bytes: number;
  chunk_bytes: number;
  /** the chunks that are not all zeros, by index; every other index reads as zeros */
  chunks: { index: number; hash: string; size: number }[];
}

export interface UploadStats {
  diskBytes: number;
  chunks: number;
  /** compressed bytes of the chunks the manifest refers to */
  storedBytes: number;
  /** bytes sent to the store: new chunks and the manifest */
  sentBytes: number;
}

export const chunkKey = (hash: string) => `chunks/${hash}`;
export const manifestKey = (id: string) => `backups/${id}.json`;

const ZERO = Buffer.alloc(CHUNK_BYTES);
const allZero = (b: Buffer) => (b.length === ZERO.length ? b.equals(ZERO) : b.equals(ZERO.subarray(0, b.length)));

/**
 * Uploads a disk copy: each non-zero chunk compressed (zlib) and stored under the SHA-256 of its
 * raw bytes unless a chunk of that hash is already there (so an unchanged chunk is never sent
 * again, by this VM or any other), then the manifest. A failure before the manifest leaves only
 * chunks nobody refers to, which the sweep removes once they are old enough.
 */
export async function uploadBackup(store: BlobStore, copy: DiskCopy, meta: { id: string; vmId: number; createdAt: Date }, known = new Set<string>()): Promise<UploadStats> {
  const chunks: Manifest['chunks'] = [];
  let storedBytes = 0;
  let sentBytes = 0;
  let index = 0;
  for await (const piece of copy.pieces(CHUNK_BYTES)) {
    const i = index++;
    if (piece === null || allZero(piece)) continue;
    const hash = createHash('sha256').update(piece).digest('hex');
    const key = chunkKey(hash);
    const body = await deflateAsync(piece);
    if (!known.has(hash) && !(await store.has(key))) {
      await store.put(key, body);
      sentBytes += body.length;
    }
    known.add(hash);
    storedBytes += body.length;
    chunks.push({ index: i, hash, size: body.length });
  }
  const manifest: Manifest = { version: 1, id: meta.id, vm_id: meta.vmId, created_at: meta.createdAt.toISOString(), disk_bytes: copy.sizeBytes, chunk_bytes: CHUNK_BYTES, chunks };
  const body = Buffer.from(JSON.stringify(manifest));
  await store.put(manifestKey(meta.id), body);
  sentBytes += body.length;
  return { diskBytes: copy.sizeBytes, chunks: chunks.length, storedBytes, sentBytes };
}

export async function readManifest(store: BlobStore, id: string): Promise<Manifest | null> {
  const body = await store.get(manifestKey(id));
  return body ? (JSON.parse(body.toString('utf8')) as Manifest) : null;
}

/** The disk's non-zero pieces from the store, each checked against its hash. */
export async function* backupPieces(store: BlobStore, manifest: Manifest): AsyncIterable<DiskPiece> {
  for (const c of manifest.chunks) {
    const body = await store.get(chunkKey(c.hash));
    if (!body) throw new Error(`chunk ${c.hash} of backup ${manifest.id} is missing from the store`);
    const data = await inflateAsync(body);
    if (createHash('sha256').update(data).digest('hex') !== c.hash) throw new Error(`chunk ${c.hash} of backup ${manifest.id} is damaged`);
    yield { offset: c.index * manifest.chunk_bytes, data };
  }
}

/**
 * The chunk sweep: deletes the chunks no manifest refers to that are older than `safetyMs` (a
 * backup that is uploading has chunks without a manifest yet; the caller also keeps backups and
 * the sweep from running at once), and the manifests of backups `gone` says are deleted.
 */
export async function sweepChunks(store: BlobStore, now: Date, safetyMs: number, gone: (id: string) => boolean): Promise<{ chunks: number; manifests: number; bytes: number }> {
  const manifests = await store.list('backups/');
  const referenced = new Set<string>();
  let removedManifests = 0;
  for (const m of manifests) {
    const id = m.key.slice('backups/'.length).replace(/\.json$/, '');
    if (gone(id)) {
      await store.delete(m.key);
      removedManifests++;
      continue;
    }
    const manifest = await readManifest(store, id);
    for (const c of manifest?.chunks ?? []) referenced.add(c.hash);
  }
  let chunks = 0;
  let bytes = 0;
  for (const c of await store.list('chunks/')) {
    const hash = c.key.slice('chunks/'.length);
    if (referenced.has(hash) || now.getTime() - c.lastModified.getTime() < safetyMs) continue;
    await store.delete(c.key);
    chunks++;
    bytes += c.size;
  }
  return { chunks, manifests: removedManifests, bytes };
}
