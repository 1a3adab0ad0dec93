export * from './paper.js';
