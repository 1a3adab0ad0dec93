import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'answer-card', include: ['src/**/*.test.ts'] } });
