import { ApiError } from '../../src/index.js';

/** The ApiError a promise rejects with (fails the test when it resolves or rejects otherwise). */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the request to fail, it succeeded');
}
