export * from './db.js';
export * from './app.js';
export * from './auth.js';
export * from './xss-payloads.js';
export * from './multipart.js';
