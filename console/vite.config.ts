import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// `npm run console:dev` serves the console with hot reload on :5173 and sends /api to the
// server on :3000 (run `npm start` beside it), so cookies stay same-origin.
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(here, '../dist/console'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // a build on a busy machine is slow for reasons of its own: no timing report in the start log
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/sandbox': 'http://127.0.0.1:3000' } },
});
