import { calls, type SmartCompose } from '@zhzy/contracts';
import { api } from '../../../lib/api';

/** Runs the optimiser; with `createPaper` the result is also saved as a draft paper. */
export async function smartCompose(body: SmartCompose) {
  return (await api.call(calls.smartCompose, { body })).data;
}
