import {
  contentSecurityPolicy,
  PERMISSIONS_POLICY,
  REFERRER_POLICY,
  RESOURCE_CONTENT_SECURITY_POLICY,
} from '../contract/security-headers';

/** Headers every local answer carries, as CloudFront's response-headers policy adds them when deployed. */
const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': REFERRER_POLICY,
  'Permissions-Policy': PERMISSIONS_POLICY,
} as const;

/**
 * The deployed policy (one definition, in lambdas/contract/security-headers.ts), minus what only makes sense over HTTPS:
 * the local server speaks plain HTTP, so `upgrade-insecure-requests` would send the browser to an
 * https://localhost that does not exist, and HSTS is not sent at all.
 */
export function pageHeaders(speechRegion: string): Record<string, string> {
  const policy = contentSecurityPolicy(speechRegion)
    .split('; ')
    .filter((directive) => directive !== 'upgrade-insecure-requests')
    .join('; ');
  return { ...COMMON, 'Content-Security-Policy': policy };
}

/** For answers that are never a page (API JSON, stored pictures, SVG included): nothing may run from them. */
export function resourceHeaders(): Record<string, string> {
  return { ...COMMON, 'Content-Security-Policy': RESOURCE_CONTENT_SECURITY_POLICY };
}
