/**
 * The web app's only error sink (docs/behaviour.md §8.7: errors are logged, never shown). Callers pass the
 * error object; nothing here ever receives a token or key.
 */
export function logError(message: string, error?: unknown): void {
  console.error(`[astro] ${message}`, ...(error === undefined ? [] : [error]));
}
