/**
 * Calls to an OpenAI-compatible server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio…) with the platform
 * `fetch`: no extra dependency, nothing vendor-specific, and the same code reaches every such server.
 */
import { ApiError } from '../lib/api-error';
import type { Deadline } from './deadline';
import {
  contentFiltered,
  MalformedReply,
  mentionsContentFilter,
  rateLimited,
  timedOut,
  upstreamFailed,
} from './upstream-errors';

export interface OpenAiServer {
  readonly baseUrl: string;
  readonly apiKey?: string;
}

/** A refusal the caller may work around (e.g. by dropping an option the server does not know). */
export class OpenAiRequestRejected extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    // Status and length only: a model server's error body can echo the learner's words back.
    super(`the server answered ${status} (${detail.length} characters)`);
    this.name = 'OpenAiRequestRejected';
  }
}

/** `{base}/{path}`, whether or not the base URL ends with a slash. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

/**
 * POSTs JSON and returns the parsed JSON answer. Throws OpenAiRequestRejected for a 400 or 422 (which
 * the caller may retry differently), and the contract's errors for everything else.
 */
export async function postJson(
  server: OpenAiServer,
  path: string,
  body: unknown,
  limit: Deadline,
): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await post(server, path, body, limit, 'application/json');
    text = await response.text();
  } catch (error) {
    throw limit.expired() ? timedOut(error) : upstreamFailed(error);
  }
  if (!response.ok) throw statusError(response.status, text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw upstreamFailed(new MalformedReply(`not JSON (${text.length} characters)`));
  }
}

/**
 * POSTs JSON asking for a streamed answer and returns the response once its headers are in (the body
 * is the caller's to read under its deadline). Failures are thrown as `postJson` throws them.
 */
export async function postForStream(
  server: OpenAiServer,
  path: string,
  body: unknown,
  limit: Deadline,
): Promise<Response> {
  let response: Response;
  try {
    response = await post(server, path, body, limit, 'text/event-stream, application/json');
    if (response.ok) return response;
    const text = await response.text();
    throw statusError(response.status, text);
  } catch (error) {
    if (error instanceof ApiError || error instanceof OpenAiRequestRejected) throw error;
    throw limit.expired() ? timedOut(error) : upstreamFailed(error);
  }
}

function statusError(status: number, detail: string): ApiError | OpenAiRequestRejected {
  const cause = new OpenAiRequestRejected(status, detail);
  if (status === 429) return rateLimited(cause);
  // Azure OpenAI and OpenAI refuse a prompt caught by their safety system with a 400 naming it.
  if ((status === 400 || status === 422) && mentionsContentFilter(detail)) return contentFiltered(cause);
  // Some servers (FastAPI-based ones among them) refuse an unknown field with 422 rather than 400.
  if (status === 400 || status === 422) return cause;
  if (status === 408 || status === 504) return timedOut(cause);
  return upstreamFailed(cause);
}

/** One JSON POST to the server, under the call's deadline. */
function post(
  server: OpenAiServer,
  path: string,
  body: unknown,
  limit: Deadline,
  accept: string,
): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: accept };
  // Local servers usually need no key; never send an empty bearer token.
  if (server.apiKey) headers.Authorization = `Bearer ${server.apiKey}`;
  return fetch(endpointUrl(server.baseUrl, path), {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: limit.signal,
  });
}
