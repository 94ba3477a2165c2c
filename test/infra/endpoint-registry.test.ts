/**
 * The endpoint registry (lambdas/endpoints.ts) is the one list of API calls: the deployed API, the local
 * server and each Lambda must all agree with it. Every row must have, in the synthesized stack, a POST
 * route at its path on its own function (sized by the row, streaming when the row streams, with a request
 * model from its schema unless its body may be empty); locally, it must be served at its path with its
 * body limit; and its Lambda handler must enforce the same limit. Nothing may be served that has no row.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiGatewaySchema } from '#infra/constructs/request-models';
import { API_ROUTES } from '#contract/routes';
import { ENDPOINT_HANDLERS } from '#lambdas/endpoint-handlers';
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from '#lambdas/endpoints';
import { startLocalApi, type LocalApi } from '#lambdas/local/local-api';
import { apiEvent, buffered } from '#support/events';
import { synthAstro, type Synthesized } from './synth';

type Props = Record<string, unknown>;
interface Resource {
  readonly Type: string;
  readonly Properties: Props;
}

describe('the endpoint registry and the synthesized stack', () => {
  let astro: Synthesized;
  let resources: Record<string, Resource>;
  beforeAll(() => {
    astro = synthAstro({}, { bundle: false });
    resources = astro.template.toJSON().Resources as Record<string, Resource>;
  });

  const logicalId = (construct: IConstruct) =>
    astro.stack.resolve(astro.stack.getLogicalId(construct.node.defaultChild as never)) as string;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  /** A REST API resource's full path, from its PathPart up through its parents to the root. */
  function pathOf(resourceId: string): string {
    const resource = resources[resourceId];
    if (!resource) return '';
    const parent = resource.Properties.ParentId as { Ref?: string };
    return `${parent.Ref ? pathOf(parent.Ref) : ''}/${String(resource.Properties.PathPart)}`;
  }
  /** Every method of the API, by its full path. */
  function methodsByPath(): Map<string, Props> {
    return new Map(
      ofType('AWS::ApiGateway::Method').map(([, method]) => [
        pathOf((method.Properties.ResourceId as { Ref: string }).Ref),
        method.Properties,
      ]),
    );
  }

  it('has exactly one POST route per row, at the row’s path, and no other', () => {
    const methods = methodsByPath();
    expect([...methods.keys()].sort()).toEqual(ENDPOINT_NAMES.map((name) => ENDPOINTS[name].path).sort());
    for (const name of ENDPOINT_NAMES) {
      expect(methods.get(ENDPOINTS[name].path)).toMatchObject({ HttpMethod: 'POST', OperationName: name });
    }
  });

  it.each(ENDPOINT_NAMES)('routes %s to its own function, sized by its row', (name) => {
    const row = ENDPOINTS[name];
    const fn = astro.stack.functions[name];
    const method = methodsByPath().get(row.path) as Props;
    expect(JSON.stringify(method.Integration)).toContain(`"${logicalId(fn)}"`);
    const others = ENDPOINT_NAMES.filter((other) => other !== name);
    for (const other of others) {
      expect(JSON.stringify(method.Integration)).not.toContain(
        `"${logicalId(astro.stack.functions[other])}"`,
      );
    }
    expect(resources[logicalId(fn)]?.Properties).toMatchObject({
      MemorySize: row.function.memoryMb,
      Timeout: row.function.timeoutSeconds,
      ReservedConcurrentExecutions: row.function.reservedConcurrency,
    });
    expect(fn.entryFile).toMatch(new RegExp(`/lambdas/${row.function.folder}/handler\\.ts$`));
    expect(existsSync(fn.entryFile)).toBe(true);
  });

  it.each(ENDPOINT_NAMES)('streams %s exactly when its row says so', (name) => {
    const integration = methodsByPath().get(ENDPOINTS[name].path)?.Integration as Props;
    expect(integration.ResponseTransferMode).toBe(ENDPOINTS[name].function.streaming ? 'STREAM' : undefined);
  });

  it.each(ENDPOINT_NAMES)(
    'checks the %s body against a model from the row’s schema, unless it may be empty',
    (name) => {
      const row = ENDPOINTS[name];
      const method = methodsByPath().get(row.path) as Props;
      if (row.request.allowEmptyBody) {
        expect(method.RequestModels).toBeUndefined();
        return;
      }
      const modelRef = (method.RequestModels as Record<string, { Ref: string }>)['application/json'];
      const model = resources[modelRef?.Ref as string]?.Properties as Props;
      // CDK writes the model's `schema` key as `$schema`.
      const { schema: version, ...generated } = astro.stack.resolve(
        apiGatewaySchema(row.request.schema),
      ) as Props;
      expect(model.Schema).toEqual({ $schema: version, ...generated });
      expect(method.RequestValidatorId).toBeDefined();
    },
  );

  it('throttles each method with its row’s default limits', () => {
    const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Resource]];
    const settings = stage.Properties.MethodSettings as Props[];
    for (const name of ENDPOINT_NAMES) {
      const { rateLimit, burstLimit } = ENDPOINTS[name].limits.throttle;
      expect(settings).toContainEqual(
        expect.objectContaining({
          ResourcePath: `/~1${ENDPOINTS[name].path.slice(1).replaceAll('/', '~1')}`,
          HttpMethod: 'POST',
          ThrottlingRateLimit: rateLimit,
          ThrottlingBurstLimit: burstLimit,
        }),
      );
    }
  });

  it('gives each row a WAF rule with the row’s default per-IP limit', () => {
    const [[, webAcl]] = ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
    const limits = (webAcl.Properties.Rules as { Statement: { RateBasedStatement?: Props } }[])
      .map((rule) => rule.Statement.RateBasedStatement)
      .filter((statement) => statement?.ScopeDownStatement !== undefined)
      .map((statement) => [JSON.stringify(statement?.ScopeDownStatement), statement?.Limit]);
    for (const name of ENDPOINT_NAMES) {
      const row = ENDPOINTS[name];
      expect(limits).toContainEqual([
        expect.stringContaining(`"${row.path.toLowerCase()}`),
        row.limits.wafPer5Minutes,
      ]);
    }
  });
});

describe('the endpoint registry and the Lambda entries', () => {
  afterAll(() => {
    delete (globalThis as { awslambda?: unknown }).awslambda;
    vi.resetModules();
  });

  it.each(ENDPOINT_NAMES)(
    '%s exports a response-streaming handler exactly when its row streams',
    async (name) => {
      // The Lambda runtime's global, as far as streamingLambda needs it: it marks what it wraps.
      (globalThis as { awslambda?: unknown }).awslambda = {
        streamifyResponse: (handler: unknown) => ({ streamifiedHandler: handler }),
        HttpResponseStream: { from: () => undefined },
      };
      vi.resetModules();
      const module = (await import(`../../lambdas/${ENDPOINTS[name].function.folder}/handler.ts`)) as {
        handler: unknown;
      };
      if (ENDPOINTS[name].function.streaming) expect(module.handler).toHaveProperty('streamifiedHandler');
      else expect(typeof module.handler).toBe('function');
    },
  );
});

describe('the endpoint registry, served locally and by each handler', () => {
  let dataDir: string;
  let api: LocalApi;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'astro-registry-'));
    api = await startLocalApi({
      dataDir,
      persist: false,
      env: { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '' },
    });
    server = createServer((request, response) => {
      void api.handle(request, response).then((handled) => {
        if (!handled) response.writeHead(599).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = async (path: string, bytes: number) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: ' '.repeat(bytes),
    });
    return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
  };

  it('serves every row of the registry and every route of the contract, and nothing else under /api', async () => {
    expect(Object.values(API_ROUTES).sort()).toEqual(
      ENDPOINT_NAMES.map((name) => ENDPOINTS[name].path).sort(),
    );
    for (const name of ENDPOINT_NAMES) expect((await post(ENDPOINTS[name].path, 0)).status).not.toBe(404);
    expect((await post('/api/unknown', 0)).body.error?.code).toBe('not_found');
  });

  it.each(ENDPOINT_NAMES)(
    'reads a %s body up to the row’s limit, and refuses one byte more',
    async (name) => {
      const { path, request } = ENDPOINTS[name];
      const atLimit = await post(path, request.maxBodyBytes);
      expect(atLimit.body.error?.code).not.toBe('payload_too_large');
      const over = await post(path, request.maxBodyBytes + 1);
      expect(over.status).toBe(413);
      expect(over.body.error?.code).toBe('payload_too_large');
    },
  );

  it.each(ENDPOINT_NAMES)(
    'the %s handler, as a Lambda, enforces the same limit itself',
    async (name: EndpointName) => {
      const { path, request } = ENDPOINTS[name];
      const handler = ENDPOINT_HANDLERS[name](api.env);
      const code = async (bytes: number) => {
        const result = buffered(await handler(apiEvent({ path, body: ' '.repeat(bytes) })));
        return (JSON.parse(result.body) as { error?: { code: string } }).error?.code;
      };
      expect(await code(request.maxBodyBytes)).not.toBe('payload_too_large');
      expect(await code(request.maxBodyBytes + 1)).toBe('payload_too_large');
    },
  );
});
