/**
 * `npm run feedback:export -- --format csv|json --out <file> [--table name] [--endpoint url] [--region r]
 * [--local [--data-dir .data]] [--no-history]`
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { endpointOverride } from '../../../lambdas/config';
import { startEmbeddedDynamo } from '../../../lambdas/local/embedded-dynamo';
import { formatSummary, readFeedback, toCsv, toJson, type ExportFormat } from './feedback-export';

export const USAGE = `Usage: npm run feedback:export -- --format csv|json --out <file> [options]

Reads every feedback item and writes it as CSV or JSON, then prints the average ratings per language.

  --format csv|json   output format (default: from the --out extension)
  --out <file>        where to write; "-" writes to stdout (the summary then goes to stderr)
  --table <name>      the feedback table (the stack output FeedbackTableName); when omitted, the one
                      table whose name contains "feedback" is used
  --region <region>   AWS region of the table (default: AWS_REGION, else us-east-1)
  --endpoint <url>    a DynamoDB-compatible endpoint instead of AWS, e.g. a running dynalite
  --local             read the local data of \`npm start\` (stop it first: one process at a time)
  --data-dir <dir>    the local data directory for --local (default: .data)
  --no-history        leave out each conversation's chat history
  --help              show this text

Against AWS the default credential chain is used (AWS_PROFILE, environment, SSO...).`;

export class UsageError extends Error {}

const optionsSchema = z
  .object({
    format: z.enum(['csv', 'json']).optional(),
    out: z.string().min(1, '--out is required'),
    table: z.string().min(1).optional(),
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as us-east-1')
      .optional(),
    endpoint: z.url().optional(),
    local: z.boolean().default(false),
    dataDir: z.string().default('.data'),
    history: z.boolean().default(true),
  })
  .refine((options) => !(options.local && options.endpoint), {
    message: '--local and --endpoint exclude each other',
  })
  .transform((options, context) => {
    const format: ExportFormat | undefined =
      options.format ??
      (options.out.endsWith('.csv') ? 'csv' : options.out.endsWith('.json') ? 'json' : undefined);
    if (!format) {
      context.addIssue({
        code: 'custom',
        message: '--format csv|json is required when --out has no .csv/.json extension',
      });
      return z.NEVER;
    }
    return { ...options, format };
  });
export type ExportOptions = z.output<typeof optionsSchema>;

export function parseOptions(argv: readonly string[]): ExportOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        format: { type: 'string' },
        out: { type: 'string' },
        table: { type: 'string' },
        region: { type: 'string' },
        endpoint: { type: 'string' },
        local: { type: 'boolean' },
        'data-dir': { type: 'string' },
        'no-history': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const parsed = optionsSchema.safeParse({
    format: values.format,
    out: values.out ?? '',
    table: values.table,
    region: values.region,
    endpoint: values.endpoint,
    local: values.local,
    dataDir: values['data-dir'],
    history: !values['no-history'],
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the export; returns the process exit code. */
export async function runExport(argv: readonly string[], io: Output, env = process.env): Promise<number> {
  let options: ExportOptions | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    io.out(`${USAGE}\n`);
    return 0;
  }

  let local: { endpoint: string; tableName: string; close(): Promise<void> } | undefined;
  if (options.local) {
    const directory = resolve(options.dataDir, 'dynamodb');
    if (!existsSync(directory)) {
      io.err(`No local data in ${directory}: run \`npm start\` and send some feedback first.\n`);
      return 1;
    }
    // Loaded only here: the local server's module pulls in every handler.
    const { LOCAL_FEEDBACK_TABLE: tableName } = await import('../../../lambdas/local/local-api');
    local = { tableName, ...(await startEmbeddedDynamo({ directory, tableName })) };
  }
  const endpoint = local?.endpoint ?? options.endpoint;
  const client = new DynamoDBClient({
    region: options.region ?? env.AWS_REGION ?? 'us-east-1',
    // A local endpoint takes any credentials; AWS uses the default chain.
    ...(endpoint ? endpointOverride(endpoint) : {}),
  });
  try {
    const tableName = options.table ?? local?.tableName ?? (await findFeedbackTable(client));
    const result = await readFeedback(DynamoDBDocumentClient.from(client), tableName);
    const includeHistory = options.history;
    const text =
      options.format === 'csv'
        ? toCsv(result.items, { includeHistory })
        : toJson(result.items, { includeHistory });
    const report = options.out === '-' ? io.err : io.out;
    if (options.out === '-') io.out(text);
    else await writeFile(options.out, text, 'utf8');
    const where = options.out === '-' ? 'stdout' : options.out;
    report(
      `Exported ${result.items.length} feedback item(s) from ${tableName} to ${where} (${options.format}).\n`,
    );
    if (result.skipped > 0) report(`Skipped ${result.skipped} item(s) that are not Astro feedback.\n`);
    report(`\n${formatSummary(result.summary)}\n`);
    return 0;
  } catch (error) {
    io.err(`${explain(error, options)}\n`);
    return 1;
  } finally {
    client.destroy();
    await local?.close();
  }
}

async function findFeedbackTable(client: DynamoDBClient): Promise<string> {
  const names: string[] = [];
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    names.push(...(page.TableNames ?? []));
    start = page.LastEvaluatedTableName;
  } while (start);
  const candidates = names.filter((name) => /feedback/i.test(name));
  if (candidates.length === 1) return candidates[0] as string;
  throw new UsageError(
    candidates.length === 0
      ? 'No table with "feedback" in its name here; pass --table (the stack output FeedbackTableName).'
      : `Several feedback tables (${candidates.join(', ')}); pass --table.`,
  );
}

function explain(error: unknown, options: ExportOptions): string {
  if (error instanceof UsageError) return error.message;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'ResourceNotFoundException') return `The table does not exist: ${options.table ?? ''}`.trim();
  if (name === 'CredentialsProviderError' || /credential/i.test(message)) {
    return 'No AWS credentials found: set AWS_PROFILE (or run `aws sso login`), or use --local / --endpoint.';
  }
  if (options.local && /lock/i.test(message)) {
    return `The local data in ${join(options.dataDir, 'dynamodb')} is in use: stop \`npm start\` first.`;
  }
  return `Export failed: ${name ? `${name}: ` : ''}${message}`;
}
