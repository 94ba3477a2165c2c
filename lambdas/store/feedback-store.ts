import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { endpointOverride, type FeedbackConfig } from '../config';
import type { FeedbackRequest } from '../contract/schemas';
import { ApiError } from '../lib/api-error';

/**
 * One stored feedback: the request as validated (with `starsEarned` when the web app sends it, docs/behaviour.md
 * §17.4), plus when it arrived and a few figures for reports.
 */
export interface FeedbackItem extends FeedbackRequest {
  /** Partition key (the request's `conversationId`). */
  readonly conversationId: string;
  /** ISO 8601, server time. */
  readonly createdAt: string;
  readonly messageCount: number;
  readonly userMessageCount: number;
  /** When DynamoDB's TTL deletes the item: epoch seconds, `retentionDays` after it arrived. */
  readonly expiresAt: number;
}

/** The table's TTL attribute (infra/constructs/feedback-table.ts names the same). */
export const FEEDBACK_TTL_ATTRIBUTE = 'expiresAt';

/** Error names the SDK gives DynamoDB's throttling answers (after its own retries ran out). */
const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
]);

/** The DynamoDB client for the feedback table, as configured (dynalite locally, DynamoDB deployed). */
export function createDynamoClient(config: FeedbackConfig): DynamoDBClient {
  return new DynamoDBClient({
    region: config.region,
    ...endpointOverride(config.endpoint),
    requestHandler: {
      connectionTimeout: config.timeoutMs,
      requestTimeout: config.timeoutMs,
      // Without this the SDK only warns when the time is up and keeps waiting.
      throwOnRequestTimeout: true,
    },
  });
}

/**
 * Feedback storage: one item per conversation. The put is conditional on the key being absent, so a repeat
 * (a double click, a retry after a lost response) never overwrites what the learner sent first.
 */
export class FeedbackStore {
  private readonly documents: DynamoDBDocumentClient;

  private readonly now: () => Date;
  private readonly retentionDays: number;

  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
    options: { readonly now?: () => Date; readonly retentionDays?: number } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.retentionDays = options.retentionDays ?? 400;
    // Optional message fields (isLoading, imageUrl) are simply absent from the stored map.
    this.documents = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }

  /** Stores the feedback; false when this conversation's feedback was already stored. */
  async save(feedback: FeedbackRequest): Promise<{ stored: boolean }> {
    const now = this.now();
    const item: FeedbackItem = {
      ...feedback,
      // One item per conversation whatever the case of its UUID: a repeat in upper case is a repeat.
      conversationId: feedback.conversationId.toLowerCase(),
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + this.retentionDays * 24 * 60 * 60,
      messageCount: feedback.chatHistory.length,
      userMessageCount: feedback.chatHistory.filter((message) => message.sender === 'user').length,
    };
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(conversationId)',
        }),
      );
      return { stored: true };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return { stored: false };
      throw storageError(error);
    }
  }
}

/** DynamoDB's failure as the contract's code; the SDK's message stays in the log, never in the answer. */
function storageError(error: unknown): ApiError {
  const name = error instanceof Error ? error.name : '';
  if (THROTTLING_ERRORS.has(name)) {
    return new ApiError('rate_limited', 'Too many feedback submissions right now. Please try again.', {
      cause: error,
    });
  }
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ApiError('upstream_timeout', 'Storing the feedback took too long. Please try again.', {
      cause: error,
    });
  }
  return new ApiError('upstream_error', 'The feedback could not be stored. Please try again.', {
    cause: error,
  });
}
