import { useRef, useState, type DragEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { DifficultyTag, QuestionBody } from '../../../components/ui/question-body';
import { ArrowUpIcon, TrashIcon } from '../../../components/icons';
import { composition } from '../../../i18n/composition';
import { cn } from '../../../lib/utils';
import {
  headingOf,
  itemScore,
  sectionNumeral,
  sectionTotal,
  type Draft,
  type DraftItem,
  type DraftSection,
} from '../utils/draft';
import { ScoreInput } from './score-input';

/** What the paper body can ask of the editor. */
export interface SectionActions {
  moveItem: (itemKey: string, delta: -1 | 1) => void;
  moveSection: (sectionKey: string, delta: -1 | 1) => void;
  dropItem: (itemKey: string, sectionKey: string, index: number) => void;
  dropSection: (sectionKey: string, index: number) => void;
  setItemScore: (itemKey: string, score: number) => void;
  setSectionScore: (sectionKey: string, score: number) => void;
  setSectionTitle: (sectionKey: string, title: string) => void;
  setSectionNote: (sectionKey: string, note: string) => void;
  removeItem: (itemKey: string) => void;
  removeSection: (sectionKey: string) => void;
  openSimilar: (itemKey: string) => void;
  openEdit: (itemKey: string) => void;
  toggleAnswer: (itemKey: string) => void;
}

const ITEM_TYPE = 'application/x-zhzy-item';
const SECTION_TYPE = 'application/x-zhzy-section';

type Drag = { kind: 'item' | 'section'; key: string };
type Indicator = { kind: 'item'; sectionKey: string; index: number } | { kind: 'section'; index: number };

/** Six dots: the mouse handle for dragging (the buttons beside it do the same by keyboard). */
function Grip() {
  return (
    <svg viewBox="0 0 12 20" className="h-5 w-3" fill="currentColor" aria-hidden="true">
      {[4, 10, 16].map((y) => (
        <g key={y}>
          <circle cx="3" cy={y} r="1.5" />
          <circle cx="9" cy={y} r="1.5" />
        </g>
      ))}
    </svg>
  );
}

const iconButton =
  'inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-30';

/** The grip a section or an item is dragged by (a pointer's way; the move buttons are the keyboard's). */
function DragHandle({
  title,
  className,
  onDragStart,
}: {
  title: string;
  className: string;
  onDragStart: (e: DragEvent<HTMLElement>) => void;
}) {
  return (
    <span
      draggable
      onDragStart={onDragStart}
      title={title}
      aria-hidden="true"
      className={cn('hidden cursor-grab active:cursor-grabbing sm:inline', className)}
    >
      <Grip />
    </span>
  );
}

/** A row's move-up and move-down icon buttons; their ids let the editor keep focus on them after a move. */
function MoveButtons({
  ids,
  first,
  last,
  up,
  down,
  onMove,
}: {
  ids: [up: string, down: string];
  first: boolean;
  last: boolean;
  up: string;
  down: string;
  onMove: (delta: -1 | 1) => void;
}) {
  const buttons = [
    { delta: -1, id: ids[0], off: first, label: up, icon: 'size-4' },
    { delta: 1, id: ids[1], off: last, label: down, icon: 'size-4 rotate-180' },
  ] as const;
  return buttons.map((b) => (
    <button
      key={b.id}
      type="button"
      id={b.id}
      className={iconButton}
      disabled={b.off}
      aria-label={b.label}
      title={b.label}
      onClick={() => onMove(b.delta)}
    >
      <ArrowUpIcon className={b.icon} />
    </button>
  ));
}

const below = (e: DragEvent<HTMLElement>) => {
  const rect = e.currentTarget.getBoundingClientRect();
  return e.clientY > rect.top + rect.height / 2;
};

/** The sections and questions of the paper, with drag and drop and the keyboard's move buttons. */
export function PaperSections({
  draft,
  numbers,
  actions,
  showAnswers,
}: {
  draft: Draft;
  numbers: Map<string, number>;
  actions: SectionActions;
  showAnswers: ReadonlySet<string>;
}) {
  const drag = useRef<Drag | null>(null);
  const [indicator, setIndicator] = useState<Indicator | null>(null);

  const start = (e: DragEvent<HTMLElement>, d: Drag, ghost: HTMLElement | null) => {
    drag.current = d;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData(d.kind === 'item' ? ITEM_TYPE : SECTION_TYPE, d.key);
    if (ghost) e.dataTransfer.setDragImage(ghost, 24, 24);
  };
  const end = () => {
    drag.current = null;
    setIndicator(null);
  };
  const drop = (e: DragEvent<HTMLElement>) => {
    const d = drag.current;
    const at = indicator;
    e.preventDefault();
    e.stopPropagation();
    end();
    if (!d || !at) return;
    if (d.kind === 'item' && at.kind === 'item') actions.dropItem(d.key, at.sectionKey, at.index);
    if (d.kind === 'section' && at.kind === 'section') actions.dropSection(d.key, at.index);
  };

  const bar = <div className="h-0.5 rounded bg-blue-500" aria-hidden="true" />;

  return (
    <div className="space-y-8" onDragEnd={end}>
      {draft.sections.map((section, si) => (
        <SectionBlock
          key={section.key}
          section={section}
          index={si}
          last={si === draft.sections.length - 1}
          numbers={numbers}
          actions={actions}
          showAnswers={showAnswers}
          indicatorBefore={indicator?.kind === 'section' && indicator.index === si ? bar : null}
          indicatorAfter={
            indicator?.kind === 'section' && indicator.index === si + 1 && si === draft.sections.length - 1
              ? bar
              : null
          }
          itemIndicator={
            indicator?.kind === 'item' && indicator.sectionKey === section.key ? indicator.index : null
          }
          bar={bar}
          onSectionDragStart={(e, ghost) => start(e, { kind: 'section', key: section.key }, ghost)}
          onItemDragStart={(e, key, ghost) => start(e, { kind: 'item', key }, ghost)}
          onSectionDragOver={(e) => {
            if (drag.current?.kind !== 'section') return;
            e.preventDefault();
            setIndicator({ kind: 'section', index: below(e) ? si + 1 : si });
          }}
          onItemDragOver={(e, index) => {
            if (drag.current?.kind !== 'item') return;
            e.preventDefault();
            e.stopPropagation();
            setIndicator({ kind: 'item', sectionKey: section.key, index });
          }}
          onDrop={drop}
        />
      ))}
    </div>
  );
}

function SectionBlock({
  section,
  index,
  last,
  numbers,
  actions,
  showAnswers,
  indicatorBefore,
  indicatorAfter,
  itemIndicator,
  bar,
  onSectionDragStart,
  onItemDragStart,
  onSectionDragOver,
  onItemDragOver,
  onDrop,
}: {
  section: DraftSection;
  index: number;
  last: boolean;
  numbers: Map<string, number>;
  actions: SectionActions;
  showAnswers: ReadonlySet<string>;
  indicatorBefore: React.ReactNode;
  indicatorAfter: React.ReactNode;
  itemIndicator: number | null;
  bar: React.ReactNode;
  onSectionDragStart: (e: DragEvent<HTMLElement>, ghost: HTMLElement | null) => void;
  onItemDragStart: (e: DragEvent<HTMLElement>, key: string, ghost: HTMLElement | null) => void;
  onSectionDragOver: (e: DragEvent<HTMLElement>) => void;
  onItemDragOver: (e: DragEvent<HTMLElement>, index: number) => void;
  onDrop: (e: DragEvent<HTMLElement>) => void;
}) {
  const ref = useRef<HTMLElement>(null);
  const number = sectionNumeral(index);
  const heading = headingOf(section, index);
  const [noteOpen, setNoteOpen] = useState(section.note !== '');
  const headId = `section-${section.key}`;
  return (
    <>
      {indicatorBefore}
      <section
        ref={ref}
        aria-labelledby={headId}
        data-testid="paper-section"
        onDragOver={onSectionDragOver}
        onDrop={onDrop}
        className="scroll-mt-32 space-y-3"
        id={`s-${section.key}`}
      >
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg bg-slate-50 px-2 py-2 sm:px-3">
          <DragHandle
            title={composition.compose.dragSection(number)}
            className="text-slate-500 hover:text-slate-600"
            onDragStart={(e) => onSectionDragStart(e, ref.current)}
          />
          <h2 id={headId} className="sr-only">
            {heading}
          </h2>
          <span className="flex items-center">
            <span className="font-semibold text-slate-900" aria-hidden="true">
              {number}、
            </span>
            <input
              aria-label={composition.compose.sectionTitle(number)}
              value={section.title}
              maxLength={40}
              onChange={(e) => actions.setSectionTitle(section.key, e.target.value)}
              className="-ml-1 h-8 w-28 min-w-0 rounded-md border border-transparent bg-transparent px-1 font-semibold text-slate-900 hover:border-slate-300 focus:border-blue-500 focus:bg-white focus:ring-2 focus:ring-blue-500/20 focus:outline-none sm:w-36"
            />
          </span>
          <label className="inline-flex items-center gap-1.5 text-sm text-slate-600">
            {composition.compose.eachScore}
            <ScoreInput
              value={section.defaultScore}
              label={composition.compose.eachScoreOf(number)}
              onCommit={(v) => actions.setSectionScore(section.key, v)}
            />
          </label>
          <span className="text-sm text-slate-500 tabular-nums" data-testid="section-total">
            {composition.compose.sectionSum(section.items.length, sectionTotal(section))}
          </span>
          <span className="ml-auto flex items-center">
            {!noteOpen && (
              <Button variant="ghost" size="sm" onClick={() => setNoteOpen(true)}>
                {composition.compose.addNote}
              </Button>
            )}
            <MoveButtons
              ids={[`sec-up-${section.key}`, `sec-down-${section.key}`]}
              first={index === 0}
              last={last}
              up={composition.compose.moveSectionUp(number)}
              down={composition.compose.moveSectionDown(number)}
              onMove={(delta) => actions.moveSection(section.key, delta)}
            />
            <button
              type="button"
              className={cn(iconButton, 'hover:text-red-600')}
              aria-label={composition.compose.removeSection(number)}
              title={composition.compose.removeSection(number)}
              onClick={() => actions.removeSection(section.key)}
            >
              <TrashIcon className="size-4" />
            </button>
          </span>
        </div>
        <p className="px-1 text-sm text-slate-500" aria-hidden="true">
          {heading}
        </p>
        {noteOpen && (
          <input
            aria-label={composition.compose.sectionNote(number)}
            placeholder={composition.compose.notePlaceholder}
            value={section.note}
            maxLength={200}
            onChange={(e) => actions.setSectionNote(section.key, e.target.value)}
            className="h-8 w-full rounded-md border border-slate-200 bg-white px-2 text-sm text-slate-700 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
          />
        )}
        <ol
          className="space-y-3"
          onDragOver={(e) => {
            if (section.items.length === 0) onItemDragOver(e, 0);
          }}
          onDrop={onDrop}
        >
          {section.items.length === 0 && (
            <li className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">
              {itemIndicator === 0 && bar}
              {composition.compose.sectionEmpty}
            </li>
          )}
          {section.items.map((item, i) => (
            <ItemRow
              key={item.key}
              item={item}
              section={section}
              index={i}
              no={numbers.get(item.key) ?? i + 1}
              last={i === section.items.length - 1}
              actions={actions}
              showAnswer={showAnswers.has(item.key)}
              before={itemIndicator === i ? bar : null}
              after={itemIndicator === i + 1 && i === section.items.length - 1 ? bar : null}
              onDragStart={(e, ghost) => onItemDragStart(e, item.key, ghost)}
              onDragOver={(e) => onItemDragOver(e, below(e) ? i + 1 : i)}
              onDrop={onDrop}
            />
          ))}
        </ol>
      </section>
      {indicatorAfter}
    </>
  );
}

function ItemRow({
  item,
  section,
  index,
  no,
  last,
  actions,
  showAnswer,
  before,
  after,
  onDragStart,
  onDragOver,
  onDrop,
}: {
  item: DraftItem;
  section: DraftSection;
  index: number;
  no: number;
  last: boolean;
  actions: SectionActions;
  showAnswer: boolean;
  before: React.ReactNode;
  after: React.ReactNode;
  onDragStart: (e: DragEvent<HTMLElement>, ghost: HTMLElement | null) => void;
  onDragOver: (e: DragEvent<HTMLElement>) => void;
  onDrop: (e: DragEvent<HTMLElement>) => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  const q = item.question;
  const overridden = item.override !== null && item.override !== section.defaultScore;
  const c = composition.compose;
  // The item's text buttons, in order; a deleted question keeps only 删除.
  const tools: { text: string; label: string; run: () => void; pressed?: boolean; className?: string }[] = [
    ...(q
      ? [
          {
            text: c.answer,
            label: c.answerOf(no),
            pressed: showAnswer,
            run: () => actions.toggleAnswer(item.key),
          },
          { text: c.replace, label: c.replaceOf(no), run: () => actions.openSimilar(item.key) },
          { text: c.edit, label: c.editOf(no), run: () => actions.openEdit(item.key) },
        ]
      : []),
    {
      text: c.remove,
      label: c.removeOf(no),
      className: 'hover:text-red-600',
      run: () => actions.removeItem(item.key),
    },
  ];
  return (
    <li
      ref={ref}
      data-testid="paper-item"
      data-question-id={item.questionId}
      onDragOver={onDragOver}
      onDrop={onDrop}
      className="scroll-mt-32"
    >
      {before}
      <div className="group rounded-lg border border-slate-200 bg-white px-3 py-3 transition-colors hover:border-slate-300 sm:px-4">
        <div className="flex gap-2">
          <DragHandle
            title={composition.compose.dragItem(no)}
            className="mt-1 text-slate-300 group-hover:text-slate-500"
            onDragStart={(e) => onDragStart(e, ref.current)}
          />
          <div className="min-w-0 flex-1">
            {q ? (
              <QuestionBody question={q} no={no} showAnswer={showAnswer} idPrefix={`pi-${item.key}`} />
            ) : (
              <p className="text-sm text-amber-700">
                {no}. {composition.compose.deletedQuestion}
              </p>
            )}
          </div>
        </div>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-2">
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
            {q && <DifficultyTag level={q.difficulty} />}
            {q?.owner === 'personal' && (
              <span className="rounded bg-violet-50 px-2 py-0.5 text-violet-700">
                {composition.compose.mine}
              </span>
            )}
            {overridden && <span className="text-amber-700">{composition.compose.overrideHint}</span>}
          </div>
          <div className="flex flex-wrap items-center gap-0.5">
            <ScoreInput
              id={`score-${item.key}`}
              value={itemScore(item, section)}
              label={composition.compose.scoreOf(no)}
              highlight={overridden}
              onCommit={(v) => actions.setItemScore(item.key, v)}
              className="mr-2"
            />
            <MoveButtons
              ids={[`up-${item.key}`, `down-${item.key}`]}
              first={index === 0}
              last={last}
              up={composition.compose.moveUp(no)}
              down={composition.compose.moveDown(no)}
              onMove={(delta) => actions.moveItem(item.key, delta)}
            />
            {tools.map((tool) => (
              <Button
                key={tool.text}
                variant="ghost"
                size="sm"
                className={tool.className}
                aria-label={tool.label}
                aria-pressed={tool.pressed}
                onClick={tool.run}
              >
                {tool.text}
              </Button>
            ))}
          </div>
        </div>
      </div>
      {after}
    </li>
  );
}
