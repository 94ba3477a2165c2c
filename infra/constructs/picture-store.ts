import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { PRIVATE_BUCKET } from './private-bucket';
import { Construct } from 'constructs';

export interface PictureStoreProps {
  /** Pictures are deleted this many days after they were drawn. */
  readonly expirationDays: number;
  readonly accessLogs: IBucket;
}

/**
 * The pictures Astro draws, as `images/<uuid>.png`: private (CloudFront reads them through Origin Access
 * Control and serves them under the same path), TLS only, and expiring so storage never grows unbounded.
 */
export class PictureStore extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: PictureStoreProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 's3/images/',
      lifecycleRules: [
        {
          expiration: Duration.days(props.expirationDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // Kept on teardown like every bucket here: emptying one needs CDK's auto-delete function, whose role
      // carries an AWS-managed policy. The pictures expire on their own; docs/deploy.md, "Teardown", says
      // how.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
