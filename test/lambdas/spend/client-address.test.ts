import { describe, expect, it } from 'vitest';
import { callerOf, clientKey, UNKNOWN_CLIENT } from '#lambdas/spend/client-address';

// Whose share a request counts against (docs/behaviour.md §12.19): an address, an IPv6 address by its /64.
describe('the client key', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['192.0.2.1:443', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:201', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::9]:443', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('reads %s as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it('counts every address of one /64 as one client, and the next /64 as another', () => {
    const rotated = ['2001:db8:aa:1::1', '2001:db8:aa:1:ffff:ffff:ffff:ffff', '2001:db8:aa:1:1234::'].map(
      clientKey,
    );
    expect(new Set(rotated).size).toBe(1);
    expect(clientKey('2001:db8:aa:2::1')).not.toBe(rotated[0]);
  });

  it.each([undefined, '', 'garbage', '1:2:3:4:5:6:7:8:9', '300.1.1.1', 'localhost'])(
    'puts an unreadable address (%s) with the other unknown callers',
    (address) => {
      expect(clientKey(address)).toBe(UNKNOWN_CLIENT);
    },
  );

  it('reads the configured header when there is one (deployed: CloudFront’s viewer address), else the socket', () => {
    const request = {
      header: (name: string) => (name === 'x-astro-viewer-address' ? '198.51.100.7' : undefined),
      sourceIp: '203.0.113.9',
    };
    expect(callerOf(request, 'x-astro-viewer-address')).toBe('198.51.100.7');
    expect(callerOf(request, undefined)).toBe('203.0.113.9');
    expect(callerOf({ header: () => undefined, sourceIp: '203.0.113.9' }, 'x-astro-viewer-address')).toBe(
      UNKNOWN_CLIENT,
    );
  });
});
