/**
 * The build-time settings (`VITE_*`), parsed once. A bad value fails loudly at load with the variable's
 * name rather than producing a broken link or API URL later.
 */
export interface WebSettings {
  /** Prefix of every API call; '' means same origin (`/api/...`). */
  readonly apiBase: string;
  readonly providerName: string;
  readonly providerUrl: string;
  readonly contactUrl: string;
}

type RawEnv = Readonly<Record<string, string | boolean | undefined>>;

const DEFAULT_PROVIDER_NAME = 'Astro Learning';
const DEFAULT_PROVIDER_URL = '/';

export function parseWebSettings(raw: RawEnv): WebSettings {
  const apiBase = text(raw, 'VITE_API_BASE') ?? '';
  if (apiBase !== '' && !/^https?:\/\/[^\s]+$/.test(apiBase)) {
    throw new Error(`VITE_API_BASE must be empty or an http(s) URL, got "${apiBase}".`);
  }
  const providerUrl = link(raw, 'VITE_PROVIDER_URL') ?? DEFAULT_PROVIDER_URL;
  return {
    apiBase: apiBase.replace(/\/+$/, ''),
    providerName: text(raw, 'VITE_PROVIDER_NAME') ?? DEFAULT_PROVIDER_NAME,
    providerUrl,
    contactUrl: link(raw, 'VITE_CONTACT_URL') ?? providerUrl,
  };
}

function text(raw: RawEnv, name: string): string | undefined {
  const value = raw[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Links rendered into the page: only http(s), mailto: or same-site paths (never `javascript:`). */
function link(raw: RawEnv, name: string): string | undefined {
  const value = text(raw, name);
  if (value === undefined) return undefined;
  if (/^(https?:\/\/|mailto:)\S+$/i.test(value) || /^\/(?!\/)\S*$/.test(value)) return value;
  throw new Error(
    `${name} must be an http(s) URL, a mailto: link or a path starting with "/", got "${value}".`,
  );
}

export const settings: WebSettings = parseWebSettings(import.meta.env);
