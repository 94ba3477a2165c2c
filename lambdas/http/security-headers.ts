/**
 * The security headers every page and API answer carries: sent by the CloudFront response-headers policy
 * when deployed and by the local server, from this one definition. Plain data, no Node APIs.
 */

/** The Azure Speech hosts the browser talks to for a region (recognition, synthesis, token refresh). */
export function speechHosts(region: string): string[] {
  return [
    `https://${region}.api.cognitive.microsoft.com`,
    `wss://${region}.stt.speech.microsoft.com`,
    `https://${region}.stt.speech.microsoft.com`,
    `wss://${region}.tts.speech.microsoft.com`,
    `https://${region}.tts.speech.microsoft.com`,
  ];
}

/**
 * Scripts and styles only from the site itself; network only to the site and the region's speech hosts;
 * `blob:`/`data:` only for media (synthesized speech, the silent unlock clip, pictures); no framing.
 */
export function contentSecurityPolicy(speechRegion: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self' ${speechHosts(speechRegion).join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PERMISSIONS_POLICY = 'microphone=(self), camera=(), geolocation=(), payment=(), usb=()';
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** The whole set, as header name → value. HSTS is left to CloudFront: the local server speaks plain HTTP. */
export function securityHeaders(speechRegion: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(speechRegion),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': REFERRER_POLICY,
    'Permissions-Policy': PERMISSIONS_POLICY,
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * Pictures are served with a sandboxing policy of their own: an SVG opened directly is a document and
 * could otherwise run script on the site's origin.
 */
export const IMAGE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'";
