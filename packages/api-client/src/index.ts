export * from './storage.js';
export * from './session.js';
export * from './errors.js';
export * from './encode.js';
export * from './client.js';
