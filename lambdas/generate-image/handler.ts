import { readPictureConfig, readSpendConfig, type Env } from '../config';
import { isBlank, type GenerateImageResponse } from '../contract/schemas';
import { SPEND_LIMIT_HEADER, SPEND_LIMITS, type SpendLimit } from '../contract/spend';
import { ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { createPictureMaker } from '../pictures/create-picture-maker';
import { createPictureStore } from '../pictures/picture-store';
import { pictureKey } from '../pictures/picture-key';
import { callerOf } from '../spend/client-address';
import { picturePrice } from '../spend/prices';
import { createSpendGuard, type SpendVerdict } from '../spend/spend-guard';
import { ticketIdentity } from '../trust/seals';
import { createTrust } from '../trust/trust-config';
import { deadline } from '../upstream/deadline';
import type { Provider } from '../config';

/** Names the provider that drew the picture (offline pictures are sketches). */
export const PICTURE_MAKER_HEADER = 'X-Astro-Image-Maker';

/** How often a request whose ticket another function spent looks for that function's picture. */
export const DRAWN_ELSEWHERE_POLL_MS = 500;

/** A picture as answered: where it is, who drew it, and the spending limit that made it a sketch. */
interface Drawn {
  readonly url: string;
  readonly provider: Provider;
  readonly limit?: SpendLimit;
}

const limitOf = (verdict: SpendVerdict): SpendLimit | undefined =>
  !verdict.allowed && (SPEND_LIMITS as readonly string[]).includes(verdict.limit)
    ? (verdict.limit as SpendLimit)
    : undefined;

/**
 * POST /api/generateImage: an English picture prompt and its ticket in, the same-origin URL of the stored
 * picture out. A prompt already drawn is served from storage (docs/behaviour.md §12.9); a new one is drawn
 * once whatever the number of requests (§12.4: single-flight here, the ticket spent once across functions);
 * past a spending limit the paid model is not called and the picture is a sketch (§12.19).
 */
export function createGenerateImageHandler(env: Env, now?: () => number): ApiHandler {
  const config = readPictureConfig(env);
  const spendConfig = readSpendConfig(env);
  const price = picturePrice(spendConfig, config);
  const trust = createTrust(env, now);
  const maker = createPictureMaker(config);
  const sketchConfig = { ...config, provider: 'offline' as const };
  const sketcher = maker.provider === 'offline' ? maker : createPictureMaker(sketchConfig);
  const store = createPictureStore(config);
  const guard = createSpendGuard(spendConfig, ENDPOINTS.generateImage.path, now);
  const inFlight = new Map<string, Promise<Drawn>>();

  async function sketch(prompt: string, signal: AbortSignal, limit?: SpendLimit): Promise<Drawn> {
    const key = pictureKey(prompt, sketchConfig);
    const stored =
      (await store.find(key, signal)) ?? (await store.save(key, await sketcher.make(prompt), signal));
    return { url: stored.url, provider: 'offline', ...(limit ? { limit } : {}) };
  }

  async function draw(
    prompt: string,
    key: string,
    ticket: string,
    client: string,
    signal: AbortSignal,
  ): Promise<Drawn> {
    const stored = await store.find(key, signal);
    if (stored) return { url: stored.url, provider: maker.provider };
    if (maker.provider === 'offline') return sketch(prompt, signal);
    const verdict = await guard.check({ client });
    if (!verdict.allowed) return sketch(prompt, signal, limitOf(verdict));
    const identity = ticketIdentity(ticket);
    for (;;) {
      const spent = await guard.spendTicket(identity);
      if (spent === 'unavailable') return sketch(prompt, signal);
      if (spent === 'taken') {
        // Another function is drawing with this ticket: its picture is this request's too.
        await new Promise((resolve) => setTimeout(resolve, DRAWN_ELSEWHERE_POLL_MS));
        if (signal.aborted)
          throw new ApiError('upstream_timeout', 'The picture took too long. Please try again.');
        const drawn = await store.find(key, signal);
        if (drawn) return { url: drawn.url, provider: maker.provider };
        continue;
      }
      const spending = guard.open({ client });
      try {
        const saved = await store.save(key, await maker.make(prompt, signal), signal);
        spending.charge('picture', price);
        return { url: saved.url, provider: maker.provider };
      } catch (error) {
        // Nothing was drawn (or kept): the ticket is given back for the learner's next try.
        await guard.releaseTicket(identity);
        throw error;
      } finally {
        await spending.settle();
      }
    }
  }

  return defineEndpoint({
    route: ENDPOINTS.generateImage.path,
    ...ENDPOINTS.generateImage.request,
    origins: readOriginRule(env),
    handle: async (input, context): Promise<Reply<GenerateImageResponse>> => {
      if (isBlank(input.prompt)) throw new ApiError('invalid_request', 'prompt: must not be blank');
      // Only a prompt Astro wrote, with its unexpired ticket, is drawn (docs/behaviour.md §12.4).
      await trust.requireTicket(input.prompt, input.ticket);
      const prompt = input.prompt.trim();
      const key = pictureKey(prompt, config);
      const client = callerOf(context, spendConfig.clientAddressHeader);
      // Requests for the same picture in this function share one draw (docs/behaviour.md §12.4).
      let flight: Promise<Drawn> | undefined = inFlight.get(key);
      if (!flight) {
        // One deadline for drawing and storing together, so the answer comes within API Gateway's limit.
        const limit = deadline(config.timeoutMs);
        flight = draw(prompt, key, input.ticket ?? '', client, limit.signal).finally(() => {
          limit.dispose();
          inFlight.delete(key);
        });
        inFlight.set(key, flight);
      }
      const drawn = await flight;
      return {
        status: 200,
        body: { imageUrl: drawn.url },
        headers: {
          [PICTURE_MAKER_HEADER]: drawn.provider,
          ...(drawn.limit ? { [SPEND_LIMIT_HEADER]: drawn.limit } : {}),
        },
      };
    },
  });
}

export const handler = handlerAtColdStart(ENDPOINTS.generateImage.path, () =>
  createGenerateImageHandler(process.env),
);
