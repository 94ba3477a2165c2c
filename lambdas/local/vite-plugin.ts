import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { Env } from '../config';
import type * as LocalApiModule from './local-api';
import type { LocalApi } from './local-api';

export interface AstroApiOptions {
  /** Default `.data` in the directory `npm run dev` runs from (the project root), shared with `npm start`. */
  readonly dataDir?: string;
  readonly env?: Env;
}

/**
 * Mounts `/api/*` and `/images/*` on the Vite dev server (`npm run dev`) through the same handlers and
 * embedded dynalite as `npm start`. Dev only: `vite build` never starts it.
 */
export function astroApi(options: AstroApiOptions = {}): Plugin {
  return {
    name: 'astro-api',
    apply: 'serve',
    configureServer(server) {
      // As in `npm start`: the SDK's notice about its future Node requirement would bury Vite's own output.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      // Loaded through Vite's own module runner, so the config bundle holds no server code. Started in the
      // background: on a dev-server restart the new server is configured before the old one closes, and
      // the embedded database waits for the old one to let go of the data directory.
      const localApi = fileURLToPath(new URL('./local-api.ts', import.meta.url));
      const ready = server.ssrLoadModule(`/@fs${localApi}`).then((module) =>
        (module as typeof LocalApiModule).startLocalApi({
          dataDir: options.dataDir ?? resolve('.data'),
          env: options.env,
        }),
      );
      ready.then(
        (api: LocalApi) => server.httpServer?.once('close', () => void api.close()),
        (error: unknown) =>
          server.config.logger.error(
            `Astro API not started: ${error instanceof Error ? error.message : error}`,
          ),
      );
      server.middlewares.use((request, response, next) => {
        const path = request.url ?? '/';
        if (!path.startsWith('/api') && !path.startsWith('/images/')) return next();
        ready
          .then((api) => api.handle(request, response))
          .then(
            (handled) => (handled ? undefined : next()),
            (error: unknown) => next(error),
          );
      });
    },
  };
}
