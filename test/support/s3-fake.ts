/**
 * A loopback stand-in for S3 that really stores what PutObject sends (path-style addressing:
 * `PUT /<bucket>/<key>`), so tests read back the key, content type, cache policy and bytes, and answers
 * HeadObject (`HEAD /<bucket>/<key>`: 200, or 404 as S3 does for a caller allowed to list the bucket).
 */
import { startFakeServer, type FakeServer } from '#support/loopback';

export interface StoredObject {
  readonly bucket: string;
  readonly key: string;
  readonly contentType: string | undefined;
  readonly cacheControl: string | undefined;
  readonly body: Buffer;
}

export interface S3Fake extends FakeServer {
  readonly objects: Map<string, StoredObject>;
}

export async function startS3Fake(): Promise<S3Fake> {
  const objects = new Map<string, StoredObject>();
  const server = await startFakeServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://fake').pathname);
    const [, bucket = '', ...keyParts] = path.split('/');
    const key = keyParts.join('/');
    if (request.method === 'PUT' && bucket && key) {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      objects.set(`${bucket}/${key}`, {
        bucket,
        key,
        contentType: header('content-type'),
        cacheControl: header('cache-control'),
        body: request.body,
      });
      response.writeHead(200, { ETag: '"fake-etag"' });
      response.end();
      return;
    }
    if (request.method === 'HEAD' && bucket && key) {
      const stored = objects.get(`${bucket}/${key}`);
      response.writeHead(stored ? 200 : 404, stored ? { 'Content-Type': stored.contentType ?? '' } : {});
      response.end();
      return;
    }
    response.writeHead(405, { 'Content-Type': 'application/xml' });
    response.end('<Error><Code>MethodNotAllowed</Code><Message>fake</Message></Error>');
  });
  return Object.assign(server, { objects });
}
