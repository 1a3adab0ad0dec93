import { useSearchParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { ButtonLink } from '../../components/ui/button';
import { Empty } from '../../components/ui/empty';
import { paths } from '../../config/paths';
import { Bench } from '../../features/marking/components/bench';
import { MARKING_TEXT as m } from '../../i18n/marking';

/** /write?block=…: the marking bench of one block; without a block, a pointer to the tasks (the address stays). */
export function Component() {
  const [params] = useSearchParams();
  const block = params.get('block');
  if (!block) {
    return (
      <Page title={m.benchTitle}>
        <Empty
          title={m.noBlock}
          description={m.noBlockHint}
          action={<ButtonLink to={paths.correct}>{m.toTasks}</ButtonLink>}
        />
      </Page>
    );
  }
  return <Bench key={block} blockId={block} />;
}
