import { useSearchParams } from 'react-router-dom';
import { CardSizeSchema } from '@zhzy/contracts';
import { CalibrationPage } from '../../../features/printing/components/calibration-page';

/** /pringtingtest: the calibration sheet of an answer-card size (`size`, A4 by default). */
export function Component() {
  const [params, setParams] = useSearchParams();
  const parsed = CardSizeSchema.safeParse(params.get('size'));
  return (
    <CalibrationPage
      size={parsed.success ? parsed.data : 'A4'}
      onSize={(size) => setParams({ size }, { replace: true })}
    />
  );
}
