import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { readSpeechConfig, type Env } from '../config';
import { IMAGES_PATH_PREFIX } from '../contract/routes';
import { ENDPOINT_HANDLERS } from '../endpoint-handlers';
import { ENDPOINT_NAMES, ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import {
  isStreamed,
  notFound,
  type ApiEvent,
  type StreamedResult,
  type StreamingApiHandler,
} from '../http/endpoint';
import { errorResponse } from '../http/response';
import { startEmbeddedDynamo } from './embedded-dynamo';
import { pageHeaders, resourceHeaders } from './site-headers';

/** The feedback table inside the embedded dynalite. */
export const LOCAL_FEEDBACK_TABLE = 'astro-feedback';
/** The spend ledger's table inside the embedded dynalite: the day's spend survives a restart. */
export const LOCAL_SPEND_TABLE = 'astro-spend';

/** What a local run uses unless the environment says otherwise: no cloud account needed. */
const LOCAL_DEFAULTS: Env = {
  ASTRO_MODEL: 'offline',
  ASTRO_IMAGE_MODEL: 'offline',
  AWS_REGION: 'us-east-1',
};

export interface LocalApiOptions {
  /** Holds `dynamodb/` (the embedded table) and `images/` (generated pictures). */
  readonly dataDir: string;
  /** Merged over process.env and the local defaults; lets tests force providers. */
  readonly env?: Env;
  /** Persist the table under `dataDir` (default) or keep it in memory. */
  readonly persist?: boolean;
}

/** `/api/*` and `/images/*` for a local Node server or the Vite dev server, through the Lambda handlers. */
export interface LocalApi {
  /** The environment the handlers were built with. */
  readonly env: Env;
  readonly pictureDir: string;
  /** The security headers for pages (their CSP names the configured speech region). */
  readonly pageHeaders: Readonly<Record<string, string>>;
  /** Answers the request if it is for `/api/*` or `/images/*`; false otherwise (not touched). */
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
}

const PICTURE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};
/** One plain file name: no separators, no dot segments, no encoding tricks. */
const PICTURE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}\.(png|jpe?g|webp|svg)$/;

export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const dataDir = resolve(options.dataDir);
  const pictureDir = join(dataDir, 'images');
  const dynamo = await startEmbeddedDynamo({
    directory: options.persist === false ? undefined : join(dataDir, 'dynamodb'),
    tableName: LOCAL_FEEDBACK_TABLE,
    spendTableName: LOCAL_SPEND_TABLE,
  });
  // The embedded table and the served picture folder are what this server is for, so they always win.
  const env: Env = {
    ...LOCAL_DEFAULTS,
    // The key that signs replies and picture tickets: created on first start, mode 0600 (docs/behaviour.md
    // §12.5).
    TRUST_KEY_FILE: join(dataDir, 'trust-key.json'),
    ...process.env,
    ...options.env,
    FEEDBACK_TABLE: LOCAL_FEEDBACK_TABLE,
    SPEND_TABLE: LOCAL_SPEND_TABLE,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    IMAGE_STORE: 'local',
    IMAGE_DIR: pictureDir,
  };
  // Built now, as a Lambda's cold start does: a configuration problem is logged at start-up and the
  // route answers 503 `not_configured` instead of the server refusing to start.
  const atStart = { AWS_LAMBDA_FUNCTION_NAME: 'local' };
  // Every row of the registry (lambdas/endpoints.ts), at its path with its body limit, as deployed.
  const endpoints = new Map<string, { handler: StreamingApiHandler; maxBodyBytes: number }>(
    ENDPOINT_NAMES.map((name) => {
      const { path, request } = ENDPOINTS[name];
      const build = () => ENDPOINT_HANDLERS[name](env);
      return [
        path,
        { handler: handlerAtColdStart(path, build, atStart), maxBodyBytes: request.maxBodyBytes },
      ];
    }),
  );
  const headers = resourceHeaders();

  async function handleApi(request: IncomingMessage, response: ServerResponse, path: string) {
    const endpoint = endpoints.get(path);
    if (!endpoint) return send(response, notFound(path), headers);
    const { handler, maxBodyBytes: limit } = endpoint;
    const body = await readBody(request, limit);
    if (body === 'too_large') {
      const tooLarge = new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);
      // The rest of the body is never read, so this connection cannot carry another request.
      return send(response, errorResponse(tooLarge), { ...headers, Connection: 'close' });
    }
    const result = await handler(toEvent(request, path, body));
    if (isStreamed(result)) await sendStream(response, result, headers);
    else send(response, result, headers);
  }

  async function handlePicture(request: IncomingMessage, response: ServerResponse, path: string) {
    const name = path.slice(IMAGES_PATH_PREFIX.length);
    const match = PICTURE_NAME.exec(name);
    const file = resolve(pictureDir, name);
    const missing = () =>
      send(response, errorResponse(new ApiError('not_found', 'No such picture.')), headers);
    if (!match || !file.startsWith(pictureDir + sep)) return missing();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return send(response, errorResponse(new ApiError('method_not_allowed', 'Pictures are read-only.')), {
        ...headers,
        Allow: 'GET, HEAD',
      });
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return missing();
    response.writeHead(200, {
      ...headers,
      'Content-Type': PICTURE_TYPES[(match[1] ?? '').toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': info.size,
      // A picture's name is a fresh UUID: its content never changes.
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    if (request.method === 'HEAD') return void response.end();
    await pipeFile(file, response);
  }

  return {
    env,
    pictureDir,
    pageHeaders: pageHeaders(speechRegion(env)),
    async handle(request, response) {
      const path = pathOf(request);
      try {
        if (path === '/api' || path.startsWith('/api/')) await handleApi(request, response, path);
        else if (path.startsWith(IMAGES_PATH_PREFIX)) await handlePicture(request, response, path);
        else return false;
      } catch {
        // A broken client connection or an unreadable file; the handlers themselves never throw.
        if (!response.headersSent) {
          send(response, errorResponse(new ApiError('internal_error', 'Something went wrong.')), headers);
        } else response.destroy();
      }
      return true;
    },
    close: () => dynamo.close(),
  };
}

function speechRegion(env: Env): string {
  try {
    return readSpeechConfig(env).region;
  } catch {
    return 'eastus';
  }
}

/** The request's path without its query string, as API Gateway's `path`. */
export function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Reads the body up to `limit` bytes. A declared or actual size over the limit stops reading at once,
 * so an oversize upload is never buffered whole.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too_large');
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.pause();
        resolvePromise('too_large');
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolvePromise(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The API Gateway REST (payload v1) event for a local request. Non-UTF-8 bodies arrive base64-encoded. */
function toEvent(request: IncomingMessage, path: string, body: Buffer): ApiEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let text: string | null = null;
  let isBase64Encoded = false;
  if (body.length > 0) {
    try {
      text = utf8.decode(body);
    } catch {
      text = body.toString('base64');
      isBase64Encoded = true;
    }
  }
  return {
    httpMethod: request.method ?? 'GET',
    path,
    headers,
    body: text,
    isBase64Encoded,
    // As API Gateway names the caller: the spend guard counts each client's share by it (§12.19).
    requestContext: { requestId: crypto.randomUUID(), identity: { sourceIp: request.socket.remoteAddress } },
  };
}

/** Writes a handler's result, with the site's security headers under the handler's own. */
export function send(
  response: ServerResponse,
  result: APIGatewayProxyResult,
  extraHeaders: Readonly<Record<string, string>>,
): void {
  const headers: Record<string, string> = { ...extraHeaders };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body, 'utf8');
  headers['Content-Length'] = String(body.length);
  response.writeHead(result.statusCode, headers);
  response.end(body);
}

/**
 * Writes a streamed result as it comes (chunked), each piece flushed as soon as it is written, as Lambda
 * response streaming does when deployed. The head goes out with the first piece, in one packet: the
 * endpoint has that piece in hand before it answers (lambdas/http/endpoint.ts), so the reader has the
 * reply's first words the moment it has the response, a hop sooner than a head sent on its own. A client
 * that leaves ends the stream early, which stops the work behind it (docs/behaviour.md §11.7).
 */
export async function sendStream(
  response: ServerResponse,
  result: StreamedResult,
  extraHeaders: Readonly<Record<string, string>>,
): Promise<void> {
  response.writeHead(result.statusCode, { ...extraHeaders, ...result.headers });
  const left = new Promise<'left'>((resolvePromise) => response.once('close', () => resolvePromise('left')));
  const pieces = result.body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([pieces.next(), left]);
      if (next === 'left' || next.done) break;
      if (!response.write(next.value)) {
        if ((await Promise.race([once(response, 'drain'), left])) === 'left') break;
      }
    }
  } finally {
    if (response.destroyed) Promise.resolve(pieces.return?.()).catch(() => undefined);
    else response.end();
  }
}

export function pipeFile(file: string, response: ServerResponse): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const stream = createReadStream(file);
    stream.once('error', reject);
    response.once('close', () => resolvePromise());
    stream.pipe(response);
  });
}
