/**
 * Where the lesson files are and how they are read (docs/behaviour.md §15.9). They are data beside the
 * code, not part of it: `./knowledge/` next to this module in the repository, and next to the chat
 * Lambda's bundle when deployed (the bundling copies the folder there), so the same relative address
 * finds them in both. The chat bundle stays small and a Bedrock or OpenAI tutor reads only the one
 * language it grounds a reply in (§17.6); why in docs/design-notes.md.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locale } from '../../contract/languages';

/** The folder the deployed bundle carries beside index.mjs (infra/constructs/astro-function.ts copies it). */
export const KNOWLEDGE_FOLDER = 'knowledge';

/**
 * The path of one lesson file: `topics.json` or `<locale>.json`. Built from this module's own path
 * rather than `new URL('./…', import.meta.url)`, which Vite rewrites into a web asset address when a
 * test runs in a browser-like environment.
 */
export function knowledgeFile(name: 'topics' | Locale): string {
  return join(dirname(fileURLToPath(import.meta.url)), KNOWLEDGE_FOLDER, `${name}.json`);
}

/** One lesson file's JSON, read at once (the offline tutor builds everything in one go). */
export function readKnowledgeFileSync(name: 'topics' | Locale): unknown {
  return JSON.parse(readFileSync(knowledgeFile(name), 'utf8')) as unknown;
}

/** One lesson file's JSON, read without blocking the replies in flight. */
export async function readKnowledgeFile(name: 'topics' | Locale): Promise<unknown> {
  return JSON.parse(await readFile(knowledgeFile(name), 'utf8')) as unknown;
}
