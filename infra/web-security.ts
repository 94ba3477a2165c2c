/**
 * The browser security headers Astro is served with: plain data and pure functions, no CDK, so the
 * CloudFront response-headers policy and the local server can send the same policy.
 */

/**
 * The hosts the Azure Speech JS SDK opens for a region (checked against the SDK's connection factories):
 * recognition `wss://<region>.stt.speech<suffix>`, synthesis `wss://<region>.tts.speech<suffix>`, and the
 * REST synthesis/voices endpoint `https://<region>.tts.speech<suffix>`. The token itself is fetched by the
 * speechToken function, so the browser never talks to `<region>.api.cognitive.microsoft.com`.
 */
export function speechHosts(region: string): readonly string[] {
  if (!/^[a-z0-9]+$/.test(region)) throw new Error(`Not an Azure region name: ${region}`);
  // Same rule as the SDK's ConnectionFactoryBase.getHostSuffix: sovereign clouds have their own domains.
  const suffix = region.startsWith('china')
    ? '.azure.cn'
    : region.startsWith('usgov')
      ? '.azure.us'
      : '.microsoft.com';
  return [
    `wss://${region}.stt.speech${suffix}`,
    `wss://${region}.tts.speech${suffix}`,
    `https://${region}.tts.speech${suffix}`,
  ];
}

/**
 * The app's Content-Security-Policy. Each source beyond 'self' is there for one reason:
 * - script-src blob: the speech SDK loads its AudioWorklet microphone processor from a Blob URL
 *   (PCMRecorder); without it the SDK falls back to the deprecated main-thread ScriptProcessorNode.
 * - media-src blob: data: synthesized speech plays from a Blob URL; the iPhone audio unlock plays a data: clip.
 * - img-src data: small images Vite inlines as data: URLs.
 * - connect-src: the speech hosts of the configured region (the API is same-origin).
 */
export function contentSecurityPolicy(speechRegion: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' blob:",
    "style-src 'self'",
    "img-src 'self' data:",
    "media-src 'self' blob: data:",
    `connect-src 'self' ${speechHosts(speechRegion).join(' ')}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    'upgrade-insecure-requests',
  ].join('; ');
}

/** For responses that are never a page (API JSON, stored pictures): nothing may load or run from them. */
export const RESOURCE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

export const PERMISSIONS_POLICY = 'microphone=(self)';
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
/** Two years, subdomains included; not preloaded, since the preload list is the domain owner's decision. */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;
