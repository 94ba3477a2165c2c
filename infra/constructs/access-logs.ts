import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Bucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { PRIVATE_BUCKET } from './private-bucket';
import { Construct } from 'constructs';

export interface AccessLogsProps {
  /** Days CloudFront and S3 access logs are kept. */
  readonly retentionDays: number;
}

/**
 * Where CloudFront's access logs and the buckets' server access logs go. Kept on teardown (RETAIN):
 * they are the record of who reached the site, and they expire on their own.
 */
export class AccessLogs extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: AccessLogsProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      // CloudFront standard logging writes with an ACL, so the bucket must accept object writers' ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(props.retentionDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
