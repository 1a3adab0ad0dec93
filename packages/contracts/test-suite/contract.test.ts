// Runs the contract suite against any host: CONTRACT_BASE_URL=http://localhost:3000 npm run contract -w @zhzy/contracts
import { contractSuite } from './index.js';

const baseUrl = process.env.CONTRACT_BASE_URL ?? 'http://localhost:3000';
contractSuite(() => ({
  baseUrl,
  username: process.env.CONTRACT_USERNAME ?? 'demo-teacher',
  password: process.env.CONTRACT_PASSWORD ?? 'Demo@2026',
}));
