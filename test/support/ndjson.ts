import { chatStreamLineSchema, type ChatStreamLine } from '#contract/schemas';
import { isStreamed, type ApiResult, type StreamedResult } from '#lambdas/http/endpoint';

/** A handler's result that must be streamed. */
export function streamed(result: ApiResult): StreamedResult {
  if (!isStreamed(result)) throw new Error(`expected a stream, got ${result.statusCode} ${result.body}`);
  return result;
}

/** Reads a streamed result's body to its end, each piece checked to be exactly one contract line. */
export async function readLines(result: ApiResult): Promise<ChatStreamLine[]> {
  const lines: ChatStreamLine[] = [];
  for await (const piece of streamed(result).body) lines.push(...parseLines(piece));
  return lines;
}

/** NDJSON text as contract lines: every line ends with a newline and matches the line schema. */
export function parseLines(text: string): ChatStreamLine[] {
  if (!text.endsWith('\n')) throw new Error(`a piece that does not end a line: ${JSON.stringify(text)}`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => chatStreamLineSchema.parse(JSON.parse(line)));
}

/** The deltas joined. */
export const textOf = (lines: readonly ChatStreamLine[]) =>
  lines.map((line) => (line.type === 'delta' ? line.text : '')).join('');
