import type { ServerResponse } from 'node:http';
import {
  sendJson,
  startFakeServer,
  type FakeRoute,
  type FakeServer,
  type RecordedRequest,
} from '#support/loopback';

/**
 * Secrets Manager's GetSecretValue in its JSON protocol (`x-amz-target: secretsmanager.GetSecretValue`),
 * answering each secret id with what `secretOf` returns now (undefined: ResourceNotFoundException).
 */
export function startSecretsManagerFake(
  secretOf: (secretId: string) => string | undefined,
): Promise<FakeServer> {
  return startFakeServer(secretsManagerRoute(secretOf));
}

/** The fake's route, to put back with `respondWith` after a test made the fake fail or hang. */
export function secretsManagerRoute(secretOf: (secretId: string) => string | undefined): FakeRoute {
  return (request: RecordedRequest, response: ServerResponse) => {
    const headers = { 'Content-Type': 'application/x-amz-json-1.1' };
    if (request.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue') {
      return sendJson(response, 400, { __type: 'InvalidRequestException', message: 'wrong call' }, headers);
    }
    const { SecretId } = JSON.parse(request.body.toString('utf8')) as { SecretId: string };
    const secret = secretOf(SecretId);
    if (secret === undefined) {
      return sendJson(
        response,
        400,
        { __type: 'ResourceNotFoundException', message: 'no such secret' },
        headers,
      );
    }
    sendJson(
      response,
      200,
      { ARN: `arn:aws:secretsmanager:us-east-1:1:secret:${SecretId}`, Name: SecretId, SecretString: secret },
      headers,
    );
  };
}
