import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lambdas/config';
import { ApiError } from '#lambdas/lib/api-error';
import { readOriginRule, requireSameSite, type OriginRule } from '#lambdas/http/origin';
import { accepts, header } from '#lambdas/http/request';

// The origin rule (docs/behaviour.md §12.6) and the header reading under it, on their own.

const withHeaders = (headers: Record<string, string | undefined>) => ({ headers });
const rule: OriginRule = { siteOrigins: ['https://astro.example.org'], hostHeader: 'x-astro-site-host' };
const refused = (headers: Record<string, string | undefined>, origins = rule) => {
  try {
    requireSameSite(withHeaders(headers), origins);
    return null;
  } catch (error) {
    return error;
  }
};

describe('the origin rule, as configured', () => {
  it('reads extra origins (comma-separated, trimmed, lower-cased) and the host header', () => {
    expect(
      readOriginRule({
        SITE_ORIGINS: ' https://Astro.Example.org , ,http://localhost:5173',
        SITE_HOST_HEADER: 'x-astro-site-host',
      }),
    ).toEqual({
      siteOrigins: ['https://astro.example.org', 'http://localhost:5173'],
      hostHeader: 'x-astro-site-host',
    });
  });

  it('defaults to no extra origin and the Host header', () => {
    expect(readOriginRule({})).toEqual({ siteOrigins: [], hostHeader: 'host' });
  });

  it.each([
    [
      { SITE_ORIGINS: 'https://astro.example.org/' },
      /SITE_ORIGINS \(an origin such as https:\/\/astro.example.org\)/,
    ],
    [{ SITE_ORIGINS: 'astro.example.org' }, /SITE_ORIGINS/],
    [{ SITE_ORIGINS: 'https://astro.example.org:123456' }, /SITE_ORIGINS/],
    [{ SITE_ORIGINS: 'x-https://astro.example.org' }, /SITE_ORIGINS/],
    [{ SITE_HOST_HEADER: 'X-Site-Host' }, /a header name in lower case/],
    [{ SITE_HOST_HEADER: 'x-site host' }, /a header name in lower case/],
  ])('refuses %j as a configuration error naming what is wrong', (env, message) => {
    expect(() => readOriginRule(env)).toThrow(ConfigError);
    expect(() => readOriginRule(env)).toThrow(message);
  });
});

describe('a request from another site', () => {
  it('is refused with 403 forbidden when the browser says cross-site, in any letter case', () => {
    const error = refused({ 'Sec-Fetch-Site': ' Cross-Site ' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'forbidden',
      status: 403,
      message: 'This API serves the Astro site only.',
    });
  });

  it('is refused for a foreign Origin, or the null origin of a sandboxed frame', () => {
    expect(refused({ Origin: 'https://evil.example' })).toMatchObject({ code: 'forbidden' });
    expect(refused({ Origin: 'null' })).toMatchObject({ code: 'forbidden' });
    // The host header must name the same host, not merely be present.
    expect(
      refused({ Origin: 'https://evil.example', 'x-astro-site-host': 'astro.cloudfront.net' }),
    ).toMatchObject({
      code: 'forbidden',
    });
  });

  it('passes same-site and same-origin requests, and requests without an Origin (not a browser’s cross-origin call)', () => {
    expect(refused({ 'Sec-Fetch-Site': 'same-origin' })).toBeNull();
    expect(refused({})).toBeNull();
    expect(refused({ Origin: '' })).toBeNull();
    expect(refused({ Origin: ' HTTPS://ASTRO.EXAMPLE.ORG ' })).toBeNull();
  });

  it('passes the site’s own host, over https or http, read from the configured header only', () => {
    expect(
      refused({ Origin: 'https://d123.cloudfront.net', 'X-Astro-Site-Host': 'D123.cloudfront.net' }),
    ).toBeNull();
    expect(refused({ Origin: 'http://localhost:8787', 'x-astro-site-host': 'localhost:8787' })).toBeNull();
    expect(refused({ Origin: 'https://d123.cloudfront.net', host: 'd123.cloudfront.net' })).toMatchObject({
      code: 'forbidden',
    });
    expect(
      refused(
        { Origin: 'ftp://localhost:8787', host: 'localhost:8787' },
        { siteOrigins: [], hostHeader: 'host' },
      ),
    ).toMatchObject({ code: 'forbidden' });
  });
});

describe('reading headers', () => {
  it('finds a header whatever its letter case, skipping undefined values', () => {
    expect(header(withHeaders({ 'X-Thing': undefined, 'x-thing': 'two' }), 'X-THING')).toBe('two');
    expect(header({ headers: null } as never, 'accept')).toBeUndefined();
  });

  it('accepts a media type only when Accept names it without q=0', () => {
    const accept = (value: string) => accepts(withHeaders({ Accept: value }), 'application/x-ndjson');
    expect(accept('application/x-ndjson')).toBe(true);
    expect(accept('text/html, Application/X-NDJSON;q=0.5')).toBe(true);
    expect(accept('application/json, application/x-ndjson; q=0')).toBe(false);
    expect(accept('application/x-ndjson;level=1;q=0.0')).toBe(false);
    expect(accept('application/json')).toBe(false);
    expect(accept('*/*')).toBe(false);
    expect(accepts(withHeaders({}), 'application/x-ndjson')).toBe(false);
  });
});
