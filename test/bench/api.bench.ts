/**
 * The API on the local server under autocannon, next to a bare node:http server answering the same JSON
 * on the same machine. The ratio (local / bare) is the figure to watch: it is what the handler layer,
 * validation and the embedded DynamoDB cost, independent of how fast this machine is.
 *
 * Loopback only, bounded: each run is 5 s with 10 connections. Servers run in their own processes.
 */
import autocannon, { type Result } from 'autocannon';
import { randomUUID } from 'node:crypto';
import { initMessage } from '#contract/languages';
import type { ChatRequest, FeedbackRequest } from '#contract/schemas';
import { LOCAL_FEEDBACK_TABLE } from '#lambdas/local/local-api';
import { startChildServer } from './support/child-server';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 10;
const JSON_HEADERS = { 'content-type': 'application/json' };

const feedback = (conversationId: string): FeedbackRequest => ({
  helpfulness: 5,
  clarity: 4,
  suggestion: 'More about black holes.',
  conversationId,
  language: 'en-US',
  chatHistory: [
    { id: 1763700000000, text: 'Hello! I am Astro. What would you like to explore?', sender: 'astro' },
    { id: 1763700001000, text: 'Why do stars twinkle?', sender: 'user' },
    { id: 1763700002000, text: 'Starlight is bent by moving air in our atmosphere.', sender: 'astro' },
    { id: 1763700003000, text: 'And planets?', sender: 'user' },
    {
      id: 1763700004000,
      text: 'Planets are close enough to look like tiny discs, so they shine steadily.',
      sender: 'astro',
    },
    { id: 1763700005000, text: 'Cool, thanks!', sender: 'user' },
  ],
});
const chat: ChatRequest = {
  userMessage: 'Why is Mars red?',
  language: 'en-US',
  chatHistory: [
    { role: 'user', content: initMessage('en-US') },
    { role: 'assistant', content: 'Hi, I am Astro! What would you like to explore tonight?' },
  ],
  conversationId: 'c0ffee00-0000-4000-8000-000000000001',
};

interface Row {
  readonly name: string;
  readonly result: Result;
}

async function run(url: string, options: Omit<Parameters<typeof autocannon>[0], 'url'>): Promise<Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, ...options });
  if (result.errors > 0 || result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' ');
    console.warn(`  note: ${result.errors} errors, ${result.non2xx} non-2xx (${codes})`);
  }
  return result;
}

/** A fresh conversationId per request: every request is a real conditional write that succeeds (201). */
const distinctFeedback = {
  method: 'POST',
  headers: JSON_HEADERS,
  requests: [
    {
      method: 'POST',
      path: '/api/feedback',
      headers: JSON_HEADERS,
      setupRequest: (request: { body?: string }) => ({
        ...request,
        body: JSON.stringify(feedback(randomUUID())),
      }),
    },
  ],
};

/** A conditional PutItem straight to dynalite (it checks that a signature is present, not that it is valid). */
const directPut = {
  method: 'POST',
  requests: [
    {
      method: 'POST',
      path: '/',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.PutItem',
        'x-amz-date': '20260101T000000Z',
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      setupRequest: (request: { body?: string }) => ({
        ...request,
        body: JSON.stringify({
          TableName: LOCAL_FEEDBACK_TABLE,
          Item: {
            conversationId: { S: randomUUID() },
            helpfulness: { N: '5' },
            suggestion: { S: 'More please.' },
          },
          ConditionExpression: 'attribute_not_exists(conversationId)',
        }),
      }),
    },
  ],
};

async function main(): Promise<void> {
  const bare = await startChildServer('./serve-bare.ts');
  const local = await startChildServer('./serve-local.ts');
  const rows: Row[] = [];
  try {
    const feedbackBody = JSON.stringify(feedback(randomUUID()));
    rows.push({
      name: 'bare node:http, same JSON',
      result: await run(`${bare.url}/api/feedback`, distinctFeedback),
    });
    // The embedded database on its own, as the handler's client calls it: what the storage itself costs.
    const dynamodb = local.details.dynamodb;
    if (dynamodb)
      rows.push({ name: 'dynalite PutItem alone, new id each', result: await run(dynamodb, directPut) });
    rows.push({
      name: 'POST /api/feedback, new id each (201)',
      result: await run(`${local.url}/api/feedback`, distinctFeedback),
    });
    // Store it once, then every request is the conditional put that finds the item (200 stored:false).
    await fetch(`${local.url}/api/feedback`, { method: 'POST', headers: JSON_HEADERS, body: feedbackBody });
    rows.push({
      name: 'POST /api/feedback, repeat id (200)',
      result: await run(`${local.url}/api/feedback`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: feedbackBody,
      }),
    });
    rows.push({
      name: 'POST /api/chat, offline tutor',
      result: await run(`${local.url}/api/chat`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify(chat),
      }),
    });
  } finally {
    await Promise.all([bare.stop(), local.stop()]);
  }

  const baseline = rows[0]?.result.requests.average ?? 1;
  console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per run, loopback`);
  console.log(
    [
      'run'.padEnd(40),
      'req/s'.padStart(9),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'vs bare'.padStart(8),
    ].join(' '),
  );
  for (const { name, result } of rows) {
    console.log(
      [
        name.padEnd(40),
        result.requests.average.toFixed(0).padStart(9),
        String(result.latency.p50).padStart(8),
        String(result.latency.p99).padStart(8),
        `${((result.requests.average / baseline) * 100).toFixed(1)}%`.padStart(8),
      ].join(' '),
    );
  }
}

await main();
