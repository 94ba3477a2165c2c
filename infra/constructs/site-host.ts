import { Function as CloudFrontFunction, FunctionCode, FunctionRuntime } from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';

/** The header that names, for the functions, the host the browser asked for (lambdas/http/origin.ts). */
export const SITE_HOST_HEADER = 'x-astro-site-host';

/**
 * A CloudFront Function (viewer request, `/api/*`): copies the viewer's Host into
 * {@link SITE_HOST_HEADER}, overwriting any value the client sent. API Gateway receives its own host name
 * in `Host`, so without this the functions could not tell the site's own `Origin` from another site's.
 */
export const SITE_HOST_CODE = `function handler(event) {
  var request = event.request;
  var host = request.headers.host ? request.headers.host.value : '';
  request.headers['${SITE_HOST_HEADER}'] = { value: host };
  return request;
}`;

export class SiteHost extends Construct {
  readonly function: CloudFrontFunction;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.function = new CloudFrontFunction(this, 'Function', {
      comment: 'Astro API: names the viewer host for the origin rule',
      code: FunctionCode.fromInline(SITE_HOST_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
  }
}
