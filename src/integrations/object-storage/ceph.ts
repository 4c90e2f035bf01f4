import { createHash, createHmac } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SignatureV4 } from '@smithy/signature-v4';
import {
  ObjectStoragePermanentError,
  type BucketAccess,
  type BucketUsage,
  type DeleteBucketResult,
  type KeyUserSpec,
  type ObjectStorageProvider,
} from './types.js';
import { bucketPolicy } from './policy.js';

export interface CephOptions {
  /** radosgw base URL, e.g. http://127.0.0.1:7480 */
  endpoint: string;
  /** keys of the platform's RGW user: owns the buckets and holds the admin caps (users, buckets) */
  accessKey: string;
  secretKey: string;
  region?: string;
}

type Bytes = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: Bytes): string | Uint8Array =>
  typeof d === 'string' ? d : d instanceof ArrayBuffer ? new Uint8Array(d) : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

/** SHA-256 / HMAC-SHA256 from node:crypto in the shape the signer takes. */
class NodeSha256 {
  private readonly h;
  constructor(secret?: Bytes) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Bytes): void {
    this.h.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}

interface AdminError extends Error {
  status: number;
  code: string;
}

/**
 * Ceph RADOS Gateway: the Admin Ops API (SigV4-signed) for users, keys, suspension and bucket
 * quotas; the S3 API (the platform user) for buckets and their policies.
 */
export class CephObjectStorage implements ObjectStorageProvider {
  readonly kind = 'ceph' as const;
  private readonly url: URL;
  private ownerUid: string | undefined;
  // The AWS SDK and the signer load at first use (a fifth of a second of every start otherwise).
  private sdkLoad: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); s3: S3Client; signer: SignatureV4 }> | undefined;

  constructor(private readonly opts: CephOptions) {
    this.url = new URL(opts.endpoint);
  }

  private sdk() {
    this.sdkLoad ??= Promise.all([import('@aws-sdk/client-s3'), import('@smithy/signature-v4')]).then(([sdk, { SignatureV4 }]) => {
      const region = this.opts.region ?? 'us-east-1';
      const credentials = { accessKeyId: this.opts.accessKey, secretAccessKey: this.opts.secretKey };
      return {
        sdk,
        s3: new sdk.S3Client({ endpoint: this.opts.endpoint, region, forcePathStyle: true, credentials, maxAttempts: 2 }),
        signer: new SignatureV4({ service: 's3', region, credentials, sha256: NodeSha256 }),
      };
    });
    return this.sdkLoad;
  }

  private async admin(method: string, resource: string, query: Record<string, string>, body?: unknown): Promise<unknown> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host: this.url.host };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const { signer } = await this.sdk();
    const signed = await signer.sign({
      method,
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      ...(this.url.port ? { port: Number(this.url.port) } : {}),
      path: `/admin/${resource}`,
      query,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    });
    const qs = Object.entries(query)
      .map(([k, v]) => (v === '' ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
      .join('&');
    const res = await fetch(`${this.url.origin}/admin/${resource}?${qs}`, {
      method,
      headers: signed.headers as Record<string, string>,
      ...(payload !== undefined ? { body: payload } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let code = `HTTP_${res.status}`;
      try {
        code = (JSON.parse(text) as { Code?: string }).Code ?? code;
      } catch {
        /* not JSON */
      }
      const err = new Error(`radosgw admin ${method} ${resource}: ${res.status} ${code}`) as AdminError;
      err.status = res.status;
      err.code = code;
      throw err;
    }
    return text ? (JSON.parse(text) as unknown) : null;
  }

  private async owner(): Promise<string> {
    if (!this.ownerUid) {
      const info = (await this.admin('GET', 'user', { 'access-key': this.opts.accessKey })) as { user_id: string };
      this.ownerUid = info.user_id;
    }
    return this.ownerUid;
  }

  async ensureBucket(name: string, quotaBytes: number): Promise<void> {
    const { sdk, s3 } = await this.sdk();
    try {
      await s3.send(new sdk.CreateBucketCommand({ Bucket: name }));
    } catch (err) {
      const code = err instanceof sdk.S3ServiceException ? err.name : '';
      if (code === 'BucketAlreadyExists') throw new ObjectStoragePermanentError(`bucket ${name} is owned by another user of the backend`, code);
      if (code !== 'BucketAlreadyOwnedByYou') throw err;
    }
    const uid = await this.owner();
    // Parameters in the query: radosgw refuses a signed JSON body on the admin API (501).
    await this.admin('PUT', 'bucket', { quota: '', uid, bucket: name, enabled: 'true', 'max-size-kb': String(Math.ceil(quotaBytes / 1024)), 'max-objects': '-1' });
  }

  async setBucketAccess(name: string, access: BucketAccess): Promise<void> {
    const policy = bucketPolicy(name, access);
    const { sdk, s3 } = await this.sdk();
    if (policy) await s3.send(new sdk.PutBucketPolicyCommand({ Bucket: name, Policy: JSON.stringify(policy) }));
    else await s3.send(new sdk.DeleteBucketPolicyCommand({ Bucket: name }));
  }

  async bucketUsage(name: string): Promise<BucketUsage | null> {
    try {
      const info = (await this.admin('GET', 'bucket', { bucket: name, stats: 'true' })) as { usage?: Record<string, { size?: number; size_actual?: number; num_objects?: number }> };
      const main = info.usage?.['rgw.main'];
      return { objects: main?.num_objects ?? 0, bytes: main?.size ?? 0 };
    } catch (err) {
      if ((err as AdminError).code === 'NoSuchBucket' || (err as AdminError).status === 404) return null;
      throw err;
    }
  }

  async deleteBucket(name: string): Promise<DeleteBucketResult> {
    const { sdk, s3 } = await this.sdk();
    try {
      await s3.send(new sdk.DeleteBucketCommand({ Bucket: name }));
      return 'deleted';
    } catch (err) {
      const code = err instanceof sdk.S3ServiceException ? err.name : '';
      if (code === 'BucketNotEmpty') return 'not_empty';
      if (code === 'NoSuchBucket') return 'missing';
      throw err;
    }
  }

  async ensureKeyUser(userId: string, spec: KeyUserSpec): Promise<void> {
    let exists = true;
    try {
      await this.admin('GET', 'user', { uid: userId });
    } catch (err) {
      if ((err as AdminError).code !== 'NoSuchUser' && (err as AdminError).status !== 404) throw err;
      exists = false;
    }
    if (!exists) {
      if (!spec.secretKey) throw new ObjectStoragePermanentError(`user ${userId} is missing and its secret is no longer known`, 'SECRET_GONE');
      // max-buckets -1: a customer key can never create buckets of its own.
      await this.admin('PUT', 'user', {
        uid: userId,
        'display-name': userId,
        'access-key': spec.accessKey,
        'secret-key': spec.secretKey,
        'key-type': 's3',
        'max-buckets': '-1',
        suspended: spec.suspended ? 'true' : 'false',
      });
    }
    await this.admin('POST', 'user', { uid: userId, suspended: spec.suspended ? 'true' : 'false' });
  }

  async deleteKeyUser(userId: string): Promise<void> {
    try {
      await this.admin('DELETE', 'user', { uid: userId, 'purge-data': 'true' });
    } catch (err) {
      if ((err as AdminError).code === 'NoSuchUser' || (err as AdminError).status === 404) return;
      throw err;
    }
  }

  close(): void {
    void this.sdkLoad?.then(({ s3 }) => s3.destroy()).catch(() => undefined);
  }
}
