import { ERROR_STATUS, type ErrorCode } from '../contract/errors';

/**
 * A failure the API reports to its caller: a code from the contract and a message safe to show.
 * Anything else thrown inside a handler is answered as 500 `internal_error` with a generic message.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
  }
}
