/**
 * The API's limits and the product's constants (docs/behaviour.md §9), as plain data for both sides.
 */
export const CHAT_USER_MESSAGE_MAX_CHARS = 2000;
export const CHAT_HISTORY_MAX_TURNS = 50;
export const CHAT_TURN_MAX_CHARS = 4000;

export const IMAGE_PROMPT_MAX_CHARS = 1000;

/**
 * A reply's signature and a picture ticket (docs/behaviour.md §9.6, §12.2, §12.4): short printable tokens.
 */
export const SIGNATURE_MAX_CHARS = 200;
export const TICKET_MAX_CHARS = 200;

export const FEEDBACK_SUGGESTION_MAX_CHARS = 2000;
export const FEEDBACK_HISTORY_MAX_MESSAGES = 200;
export const FEEDBACK_MESSAGE_MAX_CHARS = 4000;
/** An image URL kept with a feedback message: a same-origin path (`/images/<id>.<ext>`) or an https URL. */
export const FEEDBACK_IMAGE_URL_MAX_CHARS = 2048;
/** A chat message id: a timestamp, or a string starting with `loading-` (docs/behaviour.md §3.1). */
export const MESSAGE_ID_MAX_CHARS = 100;

export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** Request bodies above these sizes are refused with 413 `payload_too_large`. */
export const MAX_BODY_BYTES = 64 * 1024;
export const FEEDBACK_MAX_BODY_BYTES = 256 * 1024;

/** Prefix of the id of a picture placeholder message (docs/behaviour.md §3.3). */
export const LOADING_ID_PREFIX = 'loading-';
