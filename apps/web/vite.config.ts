import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { JS_TARGET, schoolBrowsers } from './build/browsers';
import { schemaFreeCalls } from './build/call-routes';

// The host serves dist/ on the same port; in development the API is proxied to it.
const api = process.env.ZHZY_API ?? 'http://localhost:3000';
const apiPrefixes = ['/oauth', '/system', '/teacher', '/school', '/files', '/health', '/agent'];

export default defineConfig({
  plugins: [react(), tailwindcss(), schoolBrowsers(), schemaFreeCalls()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: api, changeOrigin: false }])),
  },
  // `manifest` lets `npm run bench` find the JavaScript each route needs.
  // The oldest kernel schools run (ADR 0047): syntax lowered for it, CSS lowered and checked by schoolBrowsers().
  build: { outDir: 'dist', sourcemap: true, manifest: true, target: JS_TARGET, cssTarget: JS_TARGET },
});
