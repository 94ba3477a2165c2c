import { BlockPublicAccess, BucketEncryption, type BucketProps } from 'aws-cdk-lib/aws-s3';

/** What every Astro bucket is: never public, encrypted at rest, reachable over TLS only. */
export const PRIVATE_BUCKET = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  encryption: BucketEncryption.S3_MANAGED,
  enforceSSL: true,
} as const satisfies BucketProps;
