import { Function as CloudFrontFunction, FunctionCode, FunctionRuntime } from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';

/** The header that names, for the functions, the host the browser asked for (lambdas/http/origin.ts). */
export const SITE_HOST_HEADER = 'x-astro-site-host';
/** The header that names the viewer's address, for the spend guard's per-client share (§12.19). */
export const VIEWER_ADDRESS_HEADER = 'x-astro-viewer-address';

/**
 * A CloudFront Function (viewer request, `/api/*`): copies the viewer's Host into {@link SITE_HOST_HEADER}
 * and the viewer's address into {@link VIEWER_ADDRESS_HEADER}, overwriting any value the client sent. API
 * Gateway receives its own host name in `Host` and CloudFront's address as the source, so without this the
 * functions could not tell the site's own `Origin` from another site's, nor one client from another.
 */
export const SITE_HOST_CODE = `function handler(event) {
  var request = event.request;
  var host = request.headers.host ? request.headers.host.value : '';
  request.headers['${SITE_HOST_HEADER}'] = { value: host };
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

export class SiteHost extends Construct {
  readonly function: CloudFrontFunction;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.function = new CloudFrontFunction(this, 'Function', {
      comment: 'Astro API: names the viewer host and address for the origin rule and the spend guard',
      code: FunctionCode.fromInline(SITE_HOST_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
  }
}
