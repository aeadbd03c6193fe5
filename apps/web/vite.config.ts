import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': 'http://localhost:3000', '/idp': 'http://localhost:3000', '/assets/config': 'http://localhost:3000', '/chat': { target: 'ws://localhost:3000', ws: true }, '/media': { target: 'ws://localhost:3000', ws: true } } },
});
