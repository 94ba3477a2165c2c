import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { astroApi } from '../lambdas/local/vite-plugin.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  envDir: fileURLToPath(new URL('..', import.meta.url)),
  plugins: [react(), astroApi()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Maps for local debugging and error reports, without the comment that would make browsers fetch
    // them; the deploy leaves them out (infra/constructs/web-hosting.ts), so the sources stay private.
    sourcemap: 'hidden',
    // test/bench/web-bundle.bench.ts reads the manifest to tell the initial JS from the lazy chunks.
    manifest: true,
  },
});
