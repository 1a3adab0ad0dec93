export * from './paper.js';
export * from './layout/index.js';
