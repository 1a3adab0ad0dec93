import { afterAll, beforeAll, describe } from 'vitest';
import { contractSuite } from '@zhzy/contracts/test-suite';
import { DEMO_PASSWORD } from '../src/seed/demo.js';
import { DIALECTS, startTestApp, type TestApp } from './helpers/index.js';

// The contracts' suite over real HTTP, once per database.
describe.each(DIALECTS)('contract suite against the host on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect, listen: true });
  });
  afterAll(() => t.close());
  contractSuite(() => ({ baseUrl: t.baseUrl, username: 'demo-teacher', password: DEMO_PASSWORD }));
});
