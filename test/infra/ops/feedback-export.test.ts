import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '#contract/languages';
import { createFeedbackHandler } from '#lambdas/feedback/handler';
import { runExport } from '#infra/ops/feedback-export/cli';
import { csvCell, readFeedback, toCsv } from '#infra/ops/feedback-export/feedback-export';
import { startEmbeddedDynamo } from '#lambdas/local/embedded-dynamo';
import { startTestDynamo, type TestDynamo } from '#support/dynalite';
import { apiEvent } from '#support/events';
import { feedbackBody } from '#support/feedback';

let dynamo: TestDynamo;
const dir = mkdtempSync(join(tmpdir(), 'astro-export-'));

/** Runs the CLI and captures what it prints. */
async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runExport(argv, { out: (text) => (out += text), err: (text) => (err += text) }, {});
  return { code, out, err };
}

// starsEarned (docs/behaviour.md §17.4) is left out of one, as an older web app sent it.
const submissions: {
  language: Locale;
  helpfulness: number;
  clarity: number;
  suggestion: string;
  starsEarned?: number;
}[] = [
  { language: 'en-US', helpfulness: 5, clarity: 4, suggestion: 'More pictures, please', starsEarned: 3 },
  {
    language: 'en-US',
    helpfulness: 4,
    clarity: 3,
    suggestion: 'Say "light-year" slower, please\nand louder',
    starsEarned: 0,
  },
  { language: 'en-US', helpfulness: 3, clarity: 5, suggestion: '=HYPERLINK("http://evil.example")' },
  { language: 'ar-SA', helpfulness: 2, clarity: 4, suggestion: 'شرح رائع، شكراً', starsEarned: 1 },
  { language: 'ja-JP', helpfulness: 5, clarity: 5, suggestion: '', starsEarned: 2 },
];

beforeAll(async () => {
  dynamo = await startTestDynamo('astro-feedback-export');
  // Stored through the real feedback handler, so the export reads exactly what production writes.
  const handler = createFeedbackHandler({
    FEEDBACK_TABLE: dynamo.tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
  });
  for (const submission of submissions) {
    const result = await handler(apiEvent({ path: '/api/feedback', body: feedbackBody(submission) }));
    expect(result.statusCode).toBe(201);
  }
});

afterAll(async () => {
  await dynamo.close();
});

describe('npm run feedback:export', () => {
  it('writes every item as JSON and prints the average ratings and stars per language', async () => {
    const out = join(dir, 'feedback.json');
    const result = await cli(
      '--format',
      'json',
      '--out',
      out,
      '--endpoint',
      dynamo.endpoint,
      '--table',
      dynamo.tableName,
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const items = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>[];
    expect(items).toHaveLength(5);
    expect(items.map((item) => item.suggestion).sort()).toEqual(
      submissions.map((item) => item.suggestion).sort(),
    );
    expect(Object.fromEntries(items.map((item) => [item.suggestion, item.starsEarned]))).toEqual(
      Object.fromEntries(submissions.map((item) => [item.suggestion, item.starsEarned])),
    );
    expect(items[0]).toMatchObject({
      messageCount: 7,
      chatHistory: expect.any(Array),
      createdAt: expect.any(String),
    });
    expect(result.out).toContain(`Exported 5 feedback item(s) from ${dynamo.tableName}`);
    const rows = Object.fromEntries(
      result.out
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((cells) => cells.length === 5)
        .map(([language, ...figures]) => [language, figures]),
    );
    // Stars are averaged over the items that carry them: en-US (3 + 0) / 2.
    expect(rows['en-US']).toEqual(['3', '4.00', '4.00', '1.50']);
    expect(rows['ar-SA']).toEqual(['1', '2.00', '4.00', '1.00']);
    expect(rows['ja-JP']).toEqual(['1', '5.00', '5.00', '2.00']);
    expect(rows.all).toEqual(['5', '3.80', '4.20', '1.50']);
  });

  it('writes CSV with quoting, a byte-order mark and formulas neutralised', async () => {
    const out = join(dir, 'feedback.csv');
    const result = await cli('--out', out, '--endpoint', dynamo.endpoint, '--table', dynamo.tableName);
    expect(result.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(
      text.startsWith(
        '\uFEFFconversationId,createdAt,language,helpfulness,clarity,suggestion,messageCount,starsEarned,chatHistory\r\n',
      ),
    ).toBe(true);
    // The stars column: the count, or empty for an item stored without one.
    const starsCells = text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((row) => /,7,(\d*),"\[/.exec(row)?.[1]);
    expect(starsCells.sort()).toEqual(['', '0', '1', '2', '3']);
    expect(text).toContain('"Say ""light-year"" slower, please\nand louder"');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(text).toContain('شرح رائع، شكراً');
    expect(text.trimEnd().split('\r\n')).toHaveLength(6);
  });

  it('leaves the chat history out with --no-history', async () => {
    const out = join(dir, 'short.json');
    await cli('--out', out, '--no-history', '--endpoint', dynamo.endpoint, '--table', dynamo.tableName);
    const items = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>[];
    expect(items.every((item) => !('chatHistory' in item))).toBe(true);
  });

  it('finds the one table named like feedback when --table is left out', async () => {
    const result = await cli('--out', join(dir, 'found.json'), '--endpoint', dynamo.endpoint);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`from ${dynamo.tableName}`);
  });

  it('reads every page of a table larger than one scan page', async () => {
    const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
    const extra = await startTestDynamo('paged-feedback');
    try {
      for (let index = 0; index < 23; index += 1) {
        await extra.documents.send(
          new PutCommand({
            TableName: extra.tableName,
            Item: {
              ...feedbackBody({ helpfulness: (index % 5) + 1 }),
              createdAt: new Date(index * 1000).toISOString(),
            },
          }),
        );
      }
      const result = await readFeedback(DynamoDBDocumentClient.from(extra.documents), extra.tableName, {
        pageSize: 4,
      });
      expect(result.items).toHaveLength(23);
      expect(result.items.map((item) => item.createdAt)).toEqual(
        [...Array(23).keys()].map((index) => new Date(index * 1000).toISOString()),
      );
    } finally {
      await extra.close();
    }
  });

  it('skips items that are not feedback and says how many', async () => {
    await dynamo.documents.send(
      new PutCommand({
        TableName: dynamo.tableName,
        Item: { conversationId: 'not-feedback', note: 'hello' },
      }),
    );
    const result = await cli(
      '--out',
      '-',
      '--format',
      'json',
      '--endpoint',
      dynamo.endpoint,
      '--table',
      dynamo.tableName,
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.out) as unknown[]).length).toBe(5);
    expect(result.err).toContain('Skipped 1 item(s)');
  });

  it('reads the local data of npm start with --local', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'astro-local-'));
    const { LOCAL_FEEDBACK_TABLE } = await import('#lambdas/local/local-api');
    const local = await startEmbeddedDynamo({
      directory: join(dataDir, 'dynamodb'),
      tableName: LOCAL_FEEDBACK_TABLE,
    });
    const handler = createFeedbackHandler({
      FEEDBACK_TABLE: LOCAL_FEEDBACK_TABLE,
      DYNAMODB_ENDPOINT: local.endpoint,
    });
    await handler(
      apiEvent({
        path: '/api/feedback',
        body: feedbackBody({ language: 'fr-FR', helpfulness: 4, clarity: 2 }),
      }),
    );
    await local.close();

    const result = await cli('--local', '--data-dir', dataDir, '--out', join(dir, 'local.json'));
    expect(result.err).toBe('');
    expect(result.out).toContain(`Exported 1 feedback item(s) from ${LOCAL_FEEDBACK_TABLE}`);
    expect(result.out).toMatch(/fr-FR\s+1\s+4\.00\s+2\.00\s+-/);
  });

  it('refuses unclear options with the usage text and exit code 2', async () => {
    for (const argv of [['--out', 'feedback.txt'], ['--format', 'xml', '--out', 'a.xml'], ['--bogus'], []]) {
      const result = await cli(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err).toContain('Usage: npm run feedback:export');
    }
  });

  it('says so when the table does not exist', async () => {
    const result = await cli(
      '--out',
      join(dir, 'none.json'),
      '--endpoint',
      dynamo.endpoint,
      '--table',
      'missing',
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain('does not exist: missing');
  });
});

describe('CSV cells', () => {
  it('are quoted only when needed, with quotes doubled', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell(4)).toBe('4');
  });

  it('never start with a character a spreadsheet would run as a formula', () => {
    for (const risky of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(risky).replace(/^"/, '')).toMatch(/^'/);
    }
  });

  it('never start with a formula hidden behind blanks or NULs, which spreadsheets skip', () => {
    for (const risky of ['\0=1+1', ' =HYPERLINK("x")', '\u00a0+1', '\n-1', ' \t @SUM(A1)', '\0\0 =2']) {
      expect(csvCell(risky).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell(' plain words')).toBe('" plain words"');
  });

  it('hold the chat history as one JSON cell', () => {
    const csv = toCsv(
      [
        {
          conversationId: 'c',
          language: 'en-US',
          helpfulness: 1,
          clarity: 2,
          suggestion: '',
          chatHistory: [{ text: 'a,"b"' }],
        },
      ],
      { includeHistory: true },
    );
    expect(csv).toContain('"[{""text"":""a,\\""b\\""""}]"');
  });
});
