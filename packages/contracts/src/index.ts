export * from './common.js';
export * from './constants.js';
export * from './messages.js';
export * from './calls/index.js';
export * from './agent.js';
export * from './answer-card.js';
export * from './recognition.js';
