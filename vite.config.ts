import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { gqlInline } from './scripts/viteGqlInline';
import { inspectInDev } from './scripts/viteInspect';

export default defineConfig({
  plugins: [gqlInline(), react(), inspectInDev()],
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:8080', '/graphql': 'http://localhost:8080', '/payments': 'http://localhost:8080' } },
});
