/** The API's paths, shared by the web app, the local server and the infrastructure. */
export const API_ROUTES = {
  chat: '/api/chat',
  generateImage: '/api/generateImage',
  feedback: '/api/feedback',
  speechToken: '/api/speechToken',
} as const;

/** The media type of a streamed chat reply: one JSON object per line (docs/behaviour.md §11.1). */
export const CHAT_STREAM_MEDIA_TYPE = 'application/x-ndjson';

/**
 * The preference (RFC 7240 `Prefer`) with which the web app asks `/api/speechToken` for a token only if
 * the server has a speech key: without one it answers 204 No Content instead of 503 `not_configured`,
 * an expected answer the browser does not log as a failed request (docs/behaviour.md §7.8).
 */
export const SPEECH_TOKEN_IF_CONFIGURED = 'if-configured';

export type RouteName = keyof typeof API_ROUTES;
export type ApiPath = (typeof API_ROUTES)[RouteName];

/** Where stored pictures are served from, same-origin (CloudFront `/images/*`, or the local server). */
export const IMAGES_PATH_PREFIX = '/images/';
