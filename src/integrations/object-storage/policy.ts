import type { BucketAccess } from './types.js';

const READ = ['s3:GetObject', 's3:ListBucket', 's3:GetBucketLocation'];
const WRITE = [...READ, 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts', 's3:ListBucketMultipartUploads'];

/** The S3 bucket policy for public reads and key grants; null when nothing is granted. */
export function bucketPolicy(bucket: string, access: BucketAccess): object | null {
  const resources = [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`];
  const statements: object[] = [];
  if (access.publicRead) {
    statements.push({ Sid: 'public-read', Effect: 'Allow', Principal: '*', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${bucket}/*`] });
  }
  const sorted = [...access.grants].sort((a, b) => a.userId.localeCompare(b.userId));
  for (const acl of ['Read_Only', 'Read_Write'] as const) {
    const users = sorted.filter((g) => g.acl === acl).map((g) => `arn:aws:iam:::user/${g.userId}`);
    if (users.length > 0) {
      statements.push({ Sid: acl === 'Read_Only' ? 'keys-read-only' : 'keys-read-write', Effect: 'Allow', Principal: { AWS: users }, Action: acl === 'Read_Only' ? READ : WRITE, Resource: resources });
    }
  }
  return statements.length > 0 ? { Version: '2012-10-17', Statement: statements } : null;
}
