/**
 * The names the local server answers for (docs/behaviour.md §16.13): a page on another site can point a
 * name it controls at 127.0.0.1 (DNS rebinding) and then drive `npm start`'s API, and with it the
 * developer's own model and speech keys, as if it were the app. Such a request carries that other name in
 * `Host`, so only requests naming this machine are answered.
 */
import { networkInterfaces } from 'node:os';

/** Always served: this machine by name and by its loopback addresses. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** A `Host` header's name: lower case, without its port, brackets or a trailing dot. */
export function hostName(host: string | undefined): string | undefined {
  const text = host?.trim().toLowerCase();
  if (!text) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) return bracketed[1];
  if (text.includes('[') || text.includes(']')) return undefined;
  // One colon is a port; more would be an IPv6 address without its brackets, which HTTP does not allow.
  const colons = text.split(':').length - 1;
  if (colons > 1) return undefined;
  return (colons === 1 ? text.slice(0, text.indexOf(':')) : text).replace(/\.$/, '');
}

/**
 * The names a server bound to `listenHost` answers for: the loopback names always; bound to the network,
 * also the bound name or address itself, every address of this machine's interfaces (what another device
 * on the network types) and the configured extra names (`ASTRO_ALLOWED_HOSTS`, comma-separated).
 */
export function servedHostNames(
  listenHost: string,
  extra: readonly string[] = [],
  interfaces: () => readonly string[] = interfaceAddresses,
): ReadonlySet<string> {
  const names = new Set(LOOPBACK_NAMES);
  const bound = hostName(
    listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost,
  );
  const loopbackOnly = bound !== undefined && LOOPBACK_NAMES.includes(bound);
  if (!loopbackOnly) {
    if (bound && !WILDCARDS.has(bound)) names.add(bound);
    for (const address of interfaces()) names.add(address.toLowerCase());
  }
  for (const name of extra) {
    const normalised = hostName(name);
    if (normalised) names.add(normalised);
  }
  return names;
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address.replace(/%.*$/, '')),
  );
}

/** Whether a request's `Host` header names this server. */
export function isServedHost(host: string | undefined, served: ReadonlySet<string>): boolean {
  const name = hostName(host);
  return name !== undefined && served.has(name);
}
