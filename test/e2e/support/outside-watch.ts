import { createServer, type AddressInfo } from 'node:net';

/**
 * Every address that is not loopback goes through a proxy that is only a listener on 127.0.0.1: it
 * refuses each request and records where it was going, so a browser service nobody switched off fails at
 * once instead of reaching out, and the tests can check that nothing tried (loopback itself is never
 * proxied). Used by the Firefox and WebKit tests.
 */
export interface OutsideWatch {
  readonly port: number;
  /** `CONNECT host:443` or `GET http://host/…`: the first line of each request that tried to leave. */
  readonly attempts: readonly string[];
  close(): Promise<void>;
}

export async function watchTheOutside(): Promise<OutsideWatch> {
  const attempts: string[] = [];
  const server = createServer((socket) => {
    socket.once('data', (data) => {
      attempts.push(data.toString('latin1').split('\r\n')[0] ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
