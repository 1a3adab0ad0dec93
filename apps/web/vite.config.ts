import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The host serves dist/ on the same port; in development the API is proxied to it.
const api = process.env.ZHZY_API ?? 'http://localhost:3000';
const apiPrefixes = ['/oauth', '/system', '/teacher', '/school', '/files', '/health'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: api, changeOrigin: false }])),
  },
  // `manifest` lets `npm run bench` find the JavaScript each route needs.
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
