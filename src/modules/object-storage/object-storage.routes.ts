import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly, Paginated } from '../../platform/http/schemas.js';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { accessKeyView, bucketView, storagePriceView } from './object-storage.present.js';
import {
  AccessKey,
  AclBody,
  Bucket,
  BucketDetail,
  BucketParams,
  CreateBucketBody,
  CreateKeyBody,
  CreatedAccessKey,
  GrantBody,
  KeyActiveBody,
  KeyBucketParams,
  KeyParams,
  ListQuery,
  Price,
  PriceQuery,
  ResizeBody,
} from './object-storage.schemas.js';
import type { BucketView, KeyView, ObjectStorageService } from './object-storage.service.js';

const tags = ['Object storage'];
/** Appended to the create answers when the deployment has no S3 endpoint (the embedded default). */
const NO_DATA_PLANE =
  '. This deployment has no S3 data plane (the embedded local object storage keeps buckets, quotas, ACLs and keys, but no objects): set OBJECT_STORAGE_PROVIDER=ceph for one';

/** /api/storage/object: buckets and access keys (docs/api.md, "Object storage"). */
export const objectStorageRoutes: FastifyPluginAsyncTypebox<{ storage: ObjectStorageService }> = async (app, { storage }) => {
  const bucket = (b: BucketView) => bucketView(b, storage.endpoint);
  const key = (k: KeyView) => accessKeyView(k, storage.endpoint);

  app.get(
    '',
    { schema: { tags, summary: 'My buckets', querystring: ListQuery, response: { 200: Paginated(Bucket), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await storage.listBuckets(customerOf(req).customerId, p);
      return paginated('OK', p, { items: page.items.map(bucket), total: page.total });
    },
  );

  app.get(
    '/price',
    { schema: { tags, summary: 'Price per GB-hour, tiered (default location: 1)', querystring: PriceQuery, response: { 200: Envelope(Price), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: storagePriceView(await storage.price(customerOf(req).customerId, req.query.location_id ?? 1)) }),
  );

  app.post(
    '',
    {
      config: { activity: 'bucket.created' },
      schema: {
        tags,
        summary: 'Create a bucket (201, status Creating until the backend has it)',
        body: CreateBucketBody,
        response: { 201: Envelope(Bucket), ...errorResponses(400, 401, 402, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: `Bucket created${storage.endpoint === null ? NO_DATA_PLANE : ''}`, data: bucket(await storage.createBucket(customerOf(req).customerId, req.body)) }),
  );

  app.get(
    '/:uuid',
    { schema: { tags, summary: 'One bucket with what it stores', params: BucketParams, response: { 200: Envelope(BucketDetail), ...errorResponses(400, 401, 404, 503) } } },
    async (req) => {
      const { bucket: b, usage } = await storage.getBucket(customerOf(req).customerId, req.params.uuid);
      return { message: 'OK', data: { ...bucket(b), usage } };
    },
  );

  app.patch(
    '/:uuid/acl',
    { config: { activity: 'bucket.acl_changed' }, schema: { tags, summary: 'Public (A) or private (P)', params: BucketParams, body: AclBody, response: { 200: Envelope(Bucket), ...errorResponses(400, 401, 404, 409) } } },
    async (req) => ({ message: 'Bucket ACL updated', data: bucket(await storage.setPublicAcl(customerOf(req).customerId, req.params.uuid, req.body.public_acl)) }),
  );

  app.patch(
    '/:uuid/resize',
    {
      config: { activity: 'bucket.resized' },
      schema: {
        tags,
        summary: 'New size in GB (not below what is stored; growing is refused while the account is suspended or its balance is below zero, 402)',
        params: BucketParams,
        body: ResizeBody,
        response: { 200: Envelope(Bucket), ...errorResponses(400, 401, 402, 404, 409, 503) },
      },
    },
    async (req) => ({ message: 'Bucket resized', data: bucket(await storage.resize(customerOf(req).customerId, req.params.uuid, req.body.size)) }),
  );

  app.delete(
    '/:uuid',
    { config: { activity: 'bucket.deleted' }, schema: { tags, summary: 'Delete an empty bucket (409 BUCKET_NOT_EMPTY otherwise)', params: BucketParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404, 409, 503) } } },
    async (req) => {
      await storage.deleteBucket(customerOf(req).customerId, req.params.uuid);
      return { message: 'Bucket deleted', data: null };
    },
  );

  app.get(
    '/keys',
    { schema: { tags, summary: 'My access keys (never their secrets)', querystring: ListQuery, response: { 200: Paginated(AccessKey), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await storage.listKeys(customerOf(req).customerId, p);
      return paginated('OK', p, { items: page.items.map(key), total: page.total });
    },
  );

  app.post(
    '/keys',
    {
      config: { activity: 'access_key.created' },
      schema: {
        tags,
        summary: 'Create an access key: the SecretKey is shown in this answer only',
        body: CreateKeyBody,
        response: { 201: Envelope(CreatedAccessKey), ...errorResponses(400, 401, 409) },
      },
    },
    async (req, reply) => {
      const { key: k, secretKey } = await storage.createKey(customerOf(req).customerId, req.body);
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({ message: `Access key created${storage.endpoint === null ? NO_DATA_PLANE : ''}`, data: { ...key(k), SecretKey: secretKey } });
    },
  );

  app.patch(
    '/keys/:accessKey',
    { config: { activity: 'access_key.updated' }, schema: { tags, summary: 'Disable or re-enable a key', params: KeyParams, body: KeyActiveBody, response: { 200: Envelope(AccessKey), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'Access key updated', data: key(await storage.setKeyActive(customerOf(req).customerId, req.params.accessKey, req.body.is_active)) }),
  );

  app.post(
    '/keys/:accessKey/buckets',
    {
      config: { activity: 'access_key.bucket_granted' },
      schema: {
        tags,
        summary: 'Grant the key Read_Only or Read_Write on a bucket (again: changes the ACL)',
        params: KeyParams,
        body: GrantBody,
        response: { 200: Envelope(AccessKey), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({ message: 'Bucket access granted', data: key(await storage.grant(customerOf(req).customerId, req.params.accessKey, req.body.bucket_uuid, req.body.acl)) }),
  );

  app.delete(
    '/keys/:accessKey/buckets/:bucketUuid',
    { config: { activity: 'access_key.bucket_revoked' }, schema: { tags, summary: 'Revoke the key\'s access to a bucket', params: KeyBucketParams, response: { 200: Envelope(AccessKey), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'Bucket access revoked', data: key(await storage.revoke(customerOf(req).customerId, req.params.accessKey, req.params.bucketUuid)) }),
  );

  app.delete(
    '/keys/:accessKey',
    { config: { activity: 'access_key.deleted' }, schema: { tags, summary: 'Delete a key: clients using it get access denied', params: KeyParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404) } } },
    async (req) => {
      await storage.deleteKey(customerOf(req).customerId, req.params.accessKey);
      return { message: 'Access key deleted', data: null };
    },
  );
};
