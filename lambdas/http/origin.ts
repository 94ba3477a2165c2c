/**
 * The origin rule (docs/behaviour.md §12.6): the API serves the site's own pages only. A request a browser
 * marks as coming from another site — `Sec-Fetch-Site: cross-site`, or an `Origin` that is not one of
 * the site's own — is refused with 403 `forbidden` before any work, on every endpoint. This is what
 * stops another page from spending Astro's speech tokens, pictures and tutor on its own visitors.
 * (A script outside a browser can send any header; the WAF's per-IP limits and the tickets bound that.)
 */
import { z } from 'zod';
import { ConfigError, optionalText, type Env } from '../config';
import { ApiError } from '../lib/api-error';
import { header } from './request';

export interface OriginRule {
  /** Origins besides the site's own host: a custom domain, the Vite dev server. Lower-case, no slash. */
  readonly siteOrigins: readonly string[];
  /**
   * The header naming the host the browser asked for: `host` locally; deployed, CloudFront copies the
   * viewer's Host into `x-astro-site-host` (API Gateway sees its own host name in `host`).
   */
  readonly hostHeader: string;
}

const originText = z
  .string()
  .trim()
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, 'an origin such as https://astro.example.org')
  .transform((origin) => origin.toLowerCase());

const originSchema = z.object({
  /** Comma-separated extra origins of the site. */
  SITE_ORIGINS: optionalText.transform((text) =>
    (text ?? '').split(',').filter((part) => part.trim() !== ''),
  ),
  SITE_HOST_HEADER: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9-]+$/, 'a header name in lower case')
      .default('host'),
  ),
});

export function readOriginRule(env: Env): OriginRule {
  const parsed = originSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid origin configuration: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  const origins = z.array(originText).safeParse(parsed.data.SITE_ORIGINS);
  if (!origins.success) {
    throw new ConfigError(`Invalid origin configuration: SITE_ORIGINS (${origins.error.issues[0]?.message})`);
  }
  return { siteOrigins: origins.data, hostHeader: parsed.data.SITE_HOST_HEADER };
}

/** The origin a request came from, as the browser says it: `Sec-Fetch-Site` and `Origin`. */
type Headers = Parameters<typeof header>[0];

/** Throws 403 `forbidden` for a request a browser marks as cross-site. */
export function requireSameSite(event: Headers, rule: OriginRule): void {
  const fetchSite = header(event, 'sec-fetch-site')?.trim().toLowerCase();
  if (fetchSite === 'cross-site') throw forbidden();
  const origin = header(event, 'origin')?.trim().toLowerCase();
  // No Origin: not a browser's cross-origin call (browsers send it on every cross-origin POST).
  if (origin === undefined || origin === '') return;
  if (rule.siteOrigins.includes(origin)) return;
  const host = header(event, rule.hostHeader)?.trim().toLowerCase();
  if (host && (origin === `https://${host}` || origin === `http://${host}`)) return;
  // Everything else, `null` (sandboxed frames, file: pages) included, is another site.
  throw forbidden();
}

function forbidden(): ApiError {
  return new ApiError('forbidden', 'This API serves the Astro site only.');
}
