/**
 * The browser security headers Astro is served with: plain data and pure functions, no CDK, so the
 * CloudFront response-headers policy (infra/constructs/web-hosting.ts) and the local server
 * (lambdas/local/site-headers.ts) send the same policy.
 *
 * Why in the contract: it is the one folder every layer may import (the lint boundaries in
 * eslint.config.js), and what a browser may load from the site is part of what the server promises it,
 * whoever serves it. In infra/ the local server would import up into the stack; in lambdas/local/ the
 * stack would import the development server.
 */

/**
 * The hosts the Azure Speech JS SDK opens for a region (read from the SDK's SpeechConnectionFactory,
 * SpeechSynthesisConnectionFactory and SynthesisRestAdapter): recognition `wss://<region>.stt.speech…`,
 * synthesis `wss://<region>.tts.speech…`, and the same service's REST endpoint `https://<region>.tts.speech…`
 * (voice list, REST synthesis). The token is fetched by the speechToken function, so the browser never
 * talks to `<region>.api.cognitive.microsoft.com`.
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
 * - media-src blob: data: synthesized speech plays from a Blob URL; the iPhone audio unlock plays a
 *   data: clip (web/src/speech/audio-player.ts).
 * - connect-src: the configured region's speech hosts (the API is same-origin).
 * script-src stays 'self': the web app points the SDK at its own copy of the audio worklet instead of the
 * blob: URL the SDK would otherwise create (web/src/speech/azure-microphone.ts).
 */
export function contentSecurityPolicy(speechRegion: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
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
