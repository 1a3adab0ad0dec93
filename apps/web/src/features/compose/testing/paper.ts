import { PaperSettingsSchema, type PaperDocument, type PaperQuestion } from '@zhzy/contracts';
import { sectionNumeral } from '../utils/draft';

/** A question of a test paper. */
export function question(id: string, typeId = 'qt-1', typeName = 'single', difficulty = 3): PaperQuestion {
  return {
    id,
    typeId,
    typeName,
    difficulty,
    stem: `<p>stem ${id}</p>`,
    options: [],
    answer: `answer ${id}`,
    analysis: '',
    owner: 'system',
    knowledgePoints: [],
  };
}

/** A paper document as the host answers it, from sections of question ids. */
export function paperDoc(
  sections: {
    id: string;
    title: string;
    typeId: string;
    defaultScore: number;
    items: { q: string; score?: number | null }[];
  }[],
  extra: Partial<PaperDocument> = {},
): PaperDocument {
  let no = 0;
  let total = 0;
  const docSections = sections.map((s, i) => {
    const items = s.items.map((it) => {
      const score = it.score ?? s.defaultScore;
      total += score;
      return {
        id: `item-${it.q}`,
        no: ++no,
        questionId: it.q,
        score,
        scoreOverride: it.score ?? null,
        question: question(it.q, s.typeId, s.title),
      };
    });
    return {
      id: s.id,
      number: sectionNumeral(i),
      typeId: s.typeId,
      title: s.title,
      note: '',
      defaultScore: s.defaultScore,
      heading: s.title,
      questionCount: items.length,
      totalScore: items.reduce((a, b) => a + b.score, 0),
      items,
    };
  });
  return {
    id: 'p1',
    title: 'Paper',
    subtitle: '',
    stageId: 'stage-1',
    stageName: 'S',
    subjectId: 'subj-1',
    subjectName: 'M',
    textbookId: null,
    status: 'draft',
    source: 'basket',
    version: 3,
    questionCount: no,
    totalScore: total,
    owner: 'personal',
    ownerName: 'T',
    mine: true,
    shared: false,
    isTemplate: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    purgeInDays: null,
    permissions: { edit: true, delete: true, share: true, copy: true },
    basketPaperId: null,
    settings: PaperSettingsSchema.parse({}),
    sections: docSections,
    ...extra,
  };
}

/** Two sections: single choice 3 × 3 分 (q1–q3), written 2 × 10 分 (q4, q5). */
export const TWO_SECTIONS = () =>
  paperDoc([
    {
      id: 's1',
      title: 'single',
      typeId: 'qt-1',
      defaultScore: 3,
      items: [{ q: 'q1' }, { q: 'q2' }, { q: 'q3' }],
    },
    { id: 's2', title: 'written', typeId: 'qt-5', defaultScore: 10, items: [{ q: 'q4' }, { q: 'q5' }] },
  ]);
