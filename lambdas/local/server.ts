import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, posix, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../config';
import { ApiError } from '../lib/api-error';
import { log } from '../lib/log';
import { errorResponse } from '../http/response';
import { clientKey } from '../spend/client-address';
import { pathOf, pipeFile, send, startLocalApi } from './local-api';
import { isServedHost, servedHostNames } from './served-hosts';

/** The web build `npm run build` writes. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));
export const DEFAULT_PORT = 8787;

export interface LocalServerOptions {
  /** 0 picks any free port. Default: `PORT`, else 8787. */
  readonly port?: number;
  /** Default 127.0.0.1 (this machine only); `0.0.0.0` exposes it to the network. */
  readonly host?: string;
  /** Holds `dynamodb/` and `images/`. */
  readonly dataDir: string;
  readonly webRoot?: string;
  /** Merged over process.env and the local defaults. */
  readonly env?: Env;
  /** Connection limits (tests shorten them); the defaults are {@link CONNECTION_LIMITS}. */
  readonly limits?: Partial<ConnectionLimits>;
  /**
   * More names to answer for when bound to the network, besides the bound name and this machine's
   * addresses (default: `ASTRO_ALLOWED_HOSTS`, comma-separated).
   */
  readonly allowedHosts?: readonly string[];
}

export interface ConnectionLimits {
  /** A client must finish sending its headers within this (Node's default is 60 s). */
  readonly headersTimeoutMs: number;
  /** …and its whole request, body included (Node's default is 300 s: a body sent a byte per 2 s). */
  readonly requestTimeoutMs: number;
  /** Connections open at once; more are refused (a laptop, not a server farm). */
  readonly maxConnections: number;
  /** Connections one client address may hold at once, so its slow ones cannot use up everyone's. */
  readonly maxConnectionsPerClient: number;
  /** On shutdown, requests in flight get this long before their connections are closed. */
  readonly shutdownGraceMs: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 256,
  // A browser opens at most 6 per site; several tabs and the dev tools stay well under this.
  maxConnectionsPerClient: 32,
  shutdownGraceMs: 5_000,
};

export interface LocalServer {
  readonly url: string;
  /** The environment the handlers run with (for printing which providers are in use). */
  readonly env: Env;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * The whole app in one Node process, as CloudFront serves it when deployed: the web build (with SPA
 * fallback and the same security headers), `/images/*`, and `/api/*` through the Lambda handlers, with an
 * embedded dynalite persisting under `dataDir`.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const api = await startLocalApi({ dataDir: options.dataDir, env: options.env });
  const webRoot = resolve(options.webRoot ?? DEFAULT_WEB_ROOT);
  const headers = api.pageHeaders;

  const limits: ConnectionLimits = { ...CONNECTION_LIMITS, ...options.limits };
  const host = options.host ?? '127.0.0.1';
  const served = servedHostNames(host, options.allowedHosts ?? allowedHostsFromEnv());
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default), so it must be shorter.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, limits.headersTimeoutMs / 2)),
    },
    (request, response) => {
      void (async () => {
        if (!isServedHost(request.headers.host, served)) return misdirected(request, response, headers);
        if (await api.handle(request, response)) return;
        await serveWeb(request, response, webRoot, headers).catch(() => {
          if (!response.headersSent) plain(response, 500, 'Internal error', headers);
          else response.destroy();
        });
      })();
    },
  );
  server.maxConnections = limits.maxConnections;
  capConnectionsPerClient(server, limits.maxConnectionsPerClient);
  const port = options.port ?? portFromEnv();
  try {
    await new Promise<void>((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolvePromise();
      });
    });
  } catch (error) {
    await api.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    env: api.env,
    close: () =>
      (closing ??= (async () => {
        // Requests in flight finish (their writes land) before the database closes, within a grace period:
        // after it, slow or stuck connections are cut so stopping never waits on a client.
        await new Promise<void>((resolvePromise) => {
          const cut = setTimeout(() => server.closeAllConnections(), limits.shutdownGraceMs);
          server.close(() => {
            clearTimeout(cut);
            resolvePromise();
          });
          server.closeIdleConnections();
        });
        await api.close();
        log.debug('local server closed');
      })()),
  };
}

function allowedHostsFromEnv(): string[] {
  return (process.env.ASTRO_ALLOWED_HOSTS ?? '').split(',').filter((name) => name.trim() !== '');
}

/**
 * A request for a name this server does not serve (docs/behaviour.md §16.13): 403 `forbidden` for the API,
 * in the contract's shape; 421 Misdirected Request for anything else.
 */
function misdirected(
  request: IncomingMessage,
  response: ServerResponse,
  headers: Readonly<Record<string, string>>,
): void {
  const path = pathOf(request);
  log.warn('request for another host refused', { path: path.slice(0, 100) });
  if (path === '/api' || path.startsWith('/api/')) {
    return send(
      response,
      errorResponse(new ApiError('forbidden', 'This server answers only for its own names.')),
      { ...headers, Connection: 'close' },
    );
  }
  plain(response, 421, 'Misdirected request: this server answers only for its own names.', headers);
}

/** Closes a client's connections beyond `perClient` at once (an IPv6 client counted by its /64). */
function capConnectionsPerClient(server: Server, perClient: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = clientKey(socket.remoteAddress);
    const count = open.get(client) ?? 0;
    if (count >= perClient) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    });
  });
}

function portFromEnv(): number {
  const port = Number(process.env.PORT);
  return Number.isInteger(port) && port >= 0 && port < 65536 && process.env.PORT !== '' ? port : DEFAULT_PORT;
}

function plain(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>>,
): void {
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Serves a file of the web build, or index.html for an app path (SPA fallback). */
async function serveWeb(
  request: IncomingMessage,
  response: ServerResponse,
  webRoot: string,
  headers: Readonly<Record<string, string>>,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return plain(response, 405, 'Method not allowed', headers);
  }
  let path: string;
  try {
    path = posix.normalize(decodeURIComponent(pathOf(request)));
  } catch {
    return plain(response, 400, 'Bad request', headers);
  }
  if (path.includes('\0')) return plain(response, 400, 'Bad request', headers);
  // The build manifest (`.vite/`) and source maps are for the build and the bench only (CloudFront
  // never serves them either).
  if (path.startsWith('/.vite/') || path === '/.vite' || path.endsWith('.map')) {
    return plain(response, 404, 'Not found', headers);
  }
  const file = resolve(webRoot, `.${path}`);
  if (file !== webRoot && !file.startsWith(webRoot + sep)) return plain(response, 404, 'Not found', headers);

  let target = file;
  let info = await stat(target).catch(() => undefined);
  if (!info?.isFile()) {
    // Missing hashed assets and files with an extension are real 404s; anything else is an app path.
    if (path.startsWith('/assets/') || extname(path) !== '')
      return plain(response, 404, 'Not found', headers);
    target = resolve(webRoot, 'index.html');
    info = await stat(target).catch(() => undefined);
    if (!info?.isFile()) {
      return plain(response, 404, 'The web app is not built. Run `npm run build`.', headers);
    }
  }
  const immutable = path.startsWith('/assets/') && target === file;
  response.writeHead(200, {
    ...headers,
    'Content-Type': CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    // Vite names everything under /assets by content hash; everything else must be revalidated.
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (request.method === 'HEAD') return void response.end();
  await pipeFile(target, response);
}
