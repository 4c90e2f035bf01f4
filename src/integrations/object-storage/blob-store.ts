import { mkdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';

/** One stored object as a listing shows it. */
export interface StoredBlob {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * A flat store of objects in one bucket the platform owns (not a customer's): the VM backups keep
 * their chunks and manifests here. Keys are `/`-separated paths. Every call is idempotent.
 */
export interface BlobStore {
  readonly kind: 'ceph' | 'local';
  /** where the objects are, for operators (bucket name or folder) */
  readonly location: string;
  /** Makes the bucket (or folder) when missing. */
  ensure(): Promise<void>;
  put(key: string, body: Buffer): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Whether the object exists. */
  has(key: string): Promise<boolean>;
  /** Every object whose key starts with `prefix`. */
  list(prefix: string): Promise<StoredBlob[]>;
  delete(key: string): Promise<void>;
}

export interface S3BlobStoreOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region?: string;
  bucket: string;
  /** per request (default 60 s) */
  timeoutMs?: number;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** The platform's own bucket on the S3 server of the customers' buckets (radosgw), through the AWS SDK. */
export class S3BlobStore implements BlobStore {
  readonly kind = 'ceph' as const;
  private load: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); s3: S3Client }> | undefined;

  constructor(private readonly opts: S3BlobStoreOptions) {}

  get location(): string {
    return `s3://${this.opts.bucket}`;
  }

  private client() {
    this.load ??= import('@aws-sdk/client-s3').then((sdk) => {
      return {
        sdk,
        s3: new sdk.S3Client({
          endpoint: this.opts.endpoint,
          region: this.opts.region ?? 'us-east-1',
          forcePathStyle: true,
          credentials: { accessKeyId: this.opts.accessKey, secretAccessKey: this.opts.secretKey },
          // one retry inside a call: the backup's own retries (with backoff) handle an outage
          maxAttempts: 2,
        }),
      };
    });
    return this.load;
  }

  /** each request ends after timeoutMs (an outage fails the call instead of hanging it) */
  private signal() {
    return { abortSignal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000) };
  }

  async ensure(): Promise<void> {
    const { sdk, s3 } = await this.client();
    try {
      await s3.send(new sdk.CreateBucketCommand({ Bucket: this.opts.bucket }), this.signal());
    } catch (err) {
      if ((err as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }

  async put(key: string, body: Buffer): Promise<void> {
    const { sdk, s3 } = await this.client();
    await s3.send(new sdk.PutObjectCommand({ Bucket: this.opts.bucket, Key: key, Body: body, ContentLength: body.length }), this.signal());
  }

  async get(key: string): Promise<Buffer | null> {
    const { sdk, s3 } = await this.client();
    try {
      const res = await s3.send(new sdk.GetObjectCommand({ Bucket: this.opts.bucket, Key: key }), this.signal());
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    const { sdk, s3 } = await this.client();
    try {
      await s3.send(new sdk.HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }), this.signal());
      return true;
    } catch (err) {
      if (notFound(err)) return false;
      throw err;
    }
  }

  async list(prefix: string): Promise<StoredBlob[]> {
    const { sdk, s3 } = await this.client();
    const out: StoredBlob[] = [];
    let token: string | undefined;
    do {
      const res = await s3.send(new sdk.ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }), this.signal());
      for (const o of res.Contents ?? []) out.push({ key: o.Key!, size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) });
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async delete(key: string): Promise<void> {
    const { sdk, s3 } = await this.client();
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }), this.signal());
  }

  close(): void {
    void this.load?.then(({ s3 }) => s3.destroy()).catch(() => undefined);
  }
}

/**
 * The embedded default: the objects as files in a folder (a write goes to a temporary file that
 * is renamed, so a reader never sees half an object). `failNext` makes the next calls fail, for
 * tests of the retries.
 */
export class FolderBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  failNext = 0;

  constructor(private readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

  private file(key: string): string {
    if (key.split('/').some((p) => p === '' || p === '.' || p === '..')) throw new Error(`bad object key ${key}`);
    return path.join(this.dir, ...key.split('/'));
  }

  private maybeFail(): void {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('local blob store: simulated outage');
    }
  }

  async ensure(): Promise<void> {
    this.maybeFail();
    mkdirSync(this.dir, { recursive: true });
  }

  async put(key: string, body: Buffer): Promise<void> {
    this.maybeFail();
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await fs.writeFile(tmp, body);
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    this.maybeFail();
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    this.maybeFail();
    try {
      await fs.stat(this.file(key));
      return true;
    } catch {
      return false;
    }
  }

  async list(prefix: string): Promise<StoredBlob[]> {
    this.maybeFail();
    const out: StoredBlob[] = [];
    const walk = async (dir: string, rel: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path.join(dir, e.name), key);
        else if (!e.name.includes('.tmp-') && key.startsWith(prefix)) {
          const st = await fs.stat(path.join(dir, e.name));
          out.push({ key, size: st.size, lastModified: st.mtime });
        }
      }
    };
    await walk(this.dir, '');
    return out;
  }

  async delete(key: string): Promise<void> {
    this.maybeFail();
    await fs.rm(this.file(key), { force: true });
  }
}
