import vue from '@vitejs/plugin-vue';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    // <itch-…> are custom elements, not Vue components.
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('itch-') } } }),
    itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', noRedirect: true }),
  ],
  build: { outDir: '../dist/vue', emptyOutDir: true, rollupOptions: { input: ['index.html', 'callback.html'] } },
});
