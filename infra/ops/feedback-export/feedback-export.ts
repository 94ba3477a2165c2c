/**
 * Reads every feedback item from the DynamoDB table (a paginated Scan with the real client), and turns
 * them into a JSON or CSV document plus a summary of the ratings per language.
 */
import { paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { RATING_MAX, RATING_MIN } from '../../../lambdas/contract/limits';

export type ExportFormat = 'csv' | 'json';

/**
 * A stored item as lambdas/store writes it. Read leniently: an item written by an older version (no
 * messageCount, say) still exports; one without usable ratings is counted as skipped, never fatal.
 */
const storedFeedbackSchema = z.looseObject({
  conversationId: z.string().min(1),
  createdAt: z.string().optional(),
  language: z.string().min(1),
  helpfulness: z.number().int().min(RATING_MIN).max(RATING_MAX),
  clarity: z.number().int().min(RATING_MIN).max(RATING_MAX),
  suggestion: z.string().default(''),
  messageCount: z.number().int().nonnegative().optional(),
  /** Correct answers in the conversation (docs/behaviour.md §17.4); absent from older items. */
  starsEarned: z.number().int().nonnegative().optional(),
  chatHistory: z.array(z.unknown()).optional(),
});
export type StoredFeedback = z.output<typeof storedFeedbackSchema>;

export interface LanguageSummary {
  readonly language: string;
  readonly count: number;
  readonly averageHelpfulness: number;
  readonly averageClarity: number;
  /** Over the items that carry `starsEarned` (older ones do not); null when none does. */
  readonly averageStars: number | null;
}

export interface FeedbackExport {
  readonly items: StoredFeedback[];
  /** Items that were not feedback as Astro stores it. */
  readonly skipped: number;
  /** One row per language (by count, then name), then `all`. */
  readonly summary: LanguageSummary[];
}

export async function readFeedback(
  client: DynamoDBDocumentClient,
  tableName: string,
  options: { pageSize?: number } = {},
): Promise<FeedbackExport> {
  const items: StoredFeedback[] = [];
  let skipped = 0;
  const pages = paginateScan(
    { client, ...(options.pageSize ? { pageSize: options.pageSize } : {}) },
    { TableName: tableName },
  );
  for await (const page of pages) {
    for (const raw of page.Items ?? []) {
      const parsed = storedFeedbackSchema.safeParse(raw);
      if (parsed.success) items.push(parsed.data);
      else skipped += 1;
    }
  }
  // Oldest first, so two exports of the same table are identical.
  items.sort(
    (a, b) =>
      (a.createdAt ?? '').localeCompare(b.createdAt ?? '') ||
      a.conversationId.localeCompare(b.conversationId),
  );
  return { items, skipped, summary: summarize(items) };
}

export function summarize(items: readonly StoredFeedback[]): LanguageSummary[] {
  const row = (language: string, group: readonly StoredFeedback[]): LanguageSummary => ({
    language,
    count: group.length,
    averageHelpfulness: average(group.map((item) => item.helpfulness)),
    averageClarity: average(group.map((item) => item.clarity)),
    averageStars: averageOrNull(
      group.flatMap((item) => (item.starsEarned === undefined ? [] : [item.starsEarned])),
    ),
  });
  const byLanguage = new Map<string, StoredFeedback[]>();
  for (const item of items) byLanguage.set(item.language, [...(byLanguage.get(item.language) ?? []), item]);
  const rows = [...byLanguage].map(([language, group]) => row(language, group));
  rows.sort((a, b) => b.count - a.count || a.language.localeCompare(b.language));
  return [...rows, row('all', items)];
}

function average(values: readonly number[]): number {
  return averageOrNull(values) ?? 0;
}

function averageOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

const CSV_COLUMNS = [
  'conversationId',
  'createdAt',
  'language',
  'helpfulness',
  'clarity',
  'suggestion',
  'messageCount',
  'starsEarned',
  'chatHistory',
] as const;

/**
 * RFC 4180 CSV (CRLF, quoted where needed, quotes doubled), with a UTF-8 byte-order mark so spreadsheet
 * programs read Arabic, Hebrew, Chinese and Japanese correctly. chatHistory is one JSON cell, or left out
 * with `includeHistory: false` (a long conversation exceeds a spreadsheet cell's 32,767 characters).
 */
export function toCsv(items: readonly StoredFeedback[], options: { includeHistory: boolean }): string {
  const columns = CSV_COLUMNS.filter((column) => options.includeHistory || column !== 'chatHistory');
  const lines = [columns.join(',')];
  for (const item of items) {
    lines.push(
      columns
        .map((column) => {
          if (column === 'chatHistory') return csvCell(JSON.stringify(item.chatHistory ?? []));
          if (column === 'messageCount') return csvCell(item.messageCount ?? item.chatHistory?.length ?? '');
          return csvCell(item[column] ?? '');
        })
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * Text a spreadsheet would run as a formula: =, +, -, @ first, also after leading blanks or NULs (which
 * spreadsheets skip), or a tab or CR first.
 */
const FORMULA_START = /^([\s\0]*[=+\-@]|[\t\r])/;

/** One CSV field. Text a spreadsheet would run as a formula is prefixed with '. */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toJson(items: readonly StoredFeedback[], options: { includeHistory: boolean }): string {
  const rows = options.includeHistory ? items : items.map(({ chatHistory: _history, ...rest }) => rest);
  return `${JSON.stringify(rows, null, 2)}\n`;
}

export function formatSummary(summary: readonly LanguageSummary[]): string {
  const header = ['language', 'count', 'helpfulness', 'clarity', 'stars'];
  const rows = summary.map((row) => [
    row.language,
    String(row.count),
    row.count ? row.averageHelpfulness.toFixed(2) : '-',
    row.count ? row.averageClarity.toFixed(2) : '-',
    row.averageStars === null ? '-' : row.averageStars.toFixed(2),
  ]);
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  return [header, ...rows]
    .map((cells) =>
      cells
        .map((cell, index) =>
          index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}
