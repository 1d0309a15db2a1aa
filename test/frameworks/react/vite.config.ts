import react from '@vitejs/plugin-react';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', noRedirect: true })],
  build: { outDir: '../dist/react', emptyOutDir: true, rollupOptions: { input: ['index.html', 'callback.html'] } },
});
