import { useNavigate } from 'react-router-dom';
import { BASKET_POPOVER_WIDTH, type BasketTypeRow } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { Empty } from '../../../components/ui/empty';
import { Listbox } from '../../../components/ui/listbox';
import { Popover } from '../../../components/ui/popover';
import { Table, type Column } from '../../../components/ui/table';
import { BasketIcon, TrashIcon } from '../../../components/icons';
import { paths } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import { useBusyKey } from '../../../lib/use-busy';
import { setSelection, useSelection } from '../../../lib/selection';
import { useBasket, useBasketActions } from '../api/basket';
import { basketView } from '../hooks/use-basket-paper';

/** The basket's panel: paper selector, total, type rows with delete, clear-all and 进入组卷中心. */
export function BasketPanel({ onNavigate }: { onNavigate?: () => void }) {
  const { data: basket } = useBasket();
  const selection = useSelection();
  const actions = useBasketActions();
  const navigate = useNavigate();
  const [busy, run] = useBusyKey();
  const { paper, rows, total, fallback } = basketView(basket, selection);
  const papers = basket?.paperInfo ?? [];

  const columns: Column<BasketTypeRow>[] = [
    { key: 'type', header: t.basket.type, cell: (r) => r.dataName },
    { key: 'count', header: t.basket.count, cell: (r) => r.questionCount, align: 'center' },
    {
      key: 'action',
      header: <span className="sr-only">{t.basket.action}</span>,
      align: 'right',
      cell: (r) => (
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2 text-slate-500 hover:text-red-600"
          aria-label={t.basket.deleteRow(r.dataName)}
          loading={busy === r.id}
          disabled={busy !== null}
          onClick={() => void run(r.id, () => actions.deleteType(r.id))}
          icon={<TrashIcon className="size-4" />}
        >
          {t.basket.delete}
        </Button>
      ),
    },
  ];

  return (
    <div
      className="flex flex-col gap-4 p-4"
      style={{ width: BASKET_POPOVER_WIDTH, maxWidth: 'calc(100vw - 24px)' }}
    >
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-slate-900">{t.basket.title}</h2>
        <span className="text-sm text-slate-500" data-testid="basket-total">
          {t.basket.total(total)}
        </span>
      </div>
      <Listbox
        label={t.basket.paper}
        value={paper?.id ?? null}
        placeholder={t.basket.choosePaper}
        disabled={papers.length === 0}
        className="w-full"
        buttonClassName="flex-1"
        options={papers.map((p) => ({ value: p.id, label: t.basket.paperLabel(p.stageName, p.subjectName) }))}
        onChange={(id) => {
          const p = papers.find((x) => x.id === id);
          if (p) setSelection({ stageId: p.stageId, subjectId: p.subjectId });
        }}
      />
      {fallback && paper && (
        <p className="-mt-2 text-xs leading-5 text-amber-700" data-testid="basket-fallback">
          {t.basket.fallback(t.basket.paperLabel(paper.stageName, paper.subjectName))}
        </p>
      )}
      {paper && rows.length > 0 ? (
        <Table dense caption={t.basket.title} columns={columns} rows={rows} rowKey={(r) => r.id} />
      ) : (
        <Empty className="py-6" title={t.basket.empty} description={t.basket.emptyHint} />
      )}
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="danger"
          size="sm"
          disabled={!paper || busy !== null}
          loading={busy === 'clear'}
          onClick={() => paper && void run('clear', () => actions.clear(paper.id))}
        >
          {t.basket.clear}
        </Button>
        <Button
          size="sm"
          disabled={!paper || total === 0}
          onClick={() => {
            if (!paper) return;
            onNavigate?.();
            void navigate(
              paths.editBasket({
                paperId: paper.id,
                subjectId: paper.subjectId,
                textbookId: paper.testPaperTextbook,
              }),
            );
          }}
        >
          {t.basket.enter}
        </Button>
      </div>
    </div>
  );
}

/** The side bar's basket button with its count badge, opening the panel. */
export function BasketButton({ buttonClassName }: { buttonClassName?: string }) {
  const { data: basket } = useBasket();
  const count = basket?.sumCount ?? 0;
  return (
    <Popover
      label={t.sideBar.basketCount(count)}
      panelLabel={t.basket.title}
      anchor="left start"
      buttonClassName={buttonClassName}
      button={
        <>
          <BasketIcon className="size-6" />
          <span className="text-xs">{t.sideBar.basket}</span>
        </>
      }
      // Over the icon's top right corner (the side bar item centres a size-6 icon under its padding).
      overlay={
        <span
          data-testid="basket-badge"
          aria-hidden="true"
          className={cn(
            'pointer-events-none absolute top-[-0.125rem] right-[calc(50%-1.5rem)] min-w-5 rounded-full px-1.5 text-center text-[0.6875rem] leading-5 font-semibold sm:top-0',
            count > 0 ? 'bg-red-500 text-white' : 'bg-slate-200 text-slate-600',
          )}
        >
          {count > 99 ? '99+' : count}
        </span>
      }
    >
      {(close) => <BasketPanel onNavigate={close} />}
    </Popover>
  );
}
