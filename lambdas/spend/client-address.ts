/**
 * Whose spend a request counts against (docs/behaviour.md §12.19): the caller's address, an IPv6 address by
 * its /64. A home or school network is given a whole /64 and may use any address in it (privacy
 * extensions change it by the hour), so counting single IPv6 addresses would let one client rotate
 * through a fresh share for every request.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The key of a client whose address is missing or unreadable: such callers share one share. */
export const UNKNOWN_CLIENT = 'unknown';

/** The eight 16-bit groups of an IPv6 address, `::` expanded and an embedded IPv4 tail converted. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail?.[1]) {
    const bytes = v4Tail[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -v4Tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail].map(
    (group) => parseInt(group, 16),
  );
  return groups.length === 8 &&
    groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined;
}

/**
 * The client key for an address: an IPv4 address as it is; an IPv4 address written as IPv6
 * (`::ffff:192.0.2.1`) as that IPv4 address; any other IPv6 address as its /64 (`2001:db8:1:2::/64`).
 * A port or a zone is dropped; anything unreadable is {@link UNKNOWN_CLIENT}.
 */
export function clientKey(address: string | undefined): string {
  let text = (address ?? '').trim();
  // `[2001:db8::1]:443`, `192.0.2.1:443`, `fe80::1%eth0`
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%.*$/, '');
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return UNKNOWN_CLIENT;
  const groups = ipv6Groups(text);
  if (!groups) return UNKNOWN_CLIENT;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * The client key of a request: from the header the deployment names (CloudFront's viewer address, which
 * the stack's CloudFront Function writes over anything the client sent), else the address the request
 * came from (the local server's socket).
 */
export function callerOf(
  request: { readonly header: (name: string) => string | undefined; readonly sourceIp: string | undefined },
  addressHeader: string | undefined,
): string {
  return clientKey(addressHeader ? request.header(addressHeader) : request.sourceIp);
}
