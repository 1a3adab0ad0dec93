/**
 * Every route of SPEC §2 and the hrefs built from them. Paths keep SPEC's spelling
 * (`pringtingtest`, `papaerReport`, `printBarcode`).
 */

type Query = Record<string, string | number | boolean | null | undefined>;

/** `path` plus a query string; null and undefined values are skipped. */
export function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export const paths = {
  home: '/',
  login: '/login',
  notFound: '/404',
  /** Where a signed-in user opening `/` or `/404` goes (SPEC §2 spells it with a capital L). */
  signedInHome: '/paperList',
  userset: '/userset',
  feedback: () => withQuery('/userset', { nav: 2 }),
  protocol: '/protocol',
  edit: '/edit',
  editBasket: (q: { paperId: string; subjectId: string; textbookId: string | null }) =>
    withQuery('/edit', {
      paperId: q.paperId,
      subjectId: q.subjectId,
      textbookId: q.textbookId ?? '',
      type: 2,
    }),
  paperset: '/paperset',
  scan: '/scan',
  teamDetails: '/team/details',
  schoolSettings: (q: { orgId: string; isCreator: boolean; isAdministrator: boolean }) =>
    withQuery('/team/details', {
      orgId: q.orgId,
      isCreator: q.isCreator,
      isAdministrator: q.isAdministrator,
    }),
  teamMember: '/team/member',
  teamGroup: '/team/group',
  invite: '/invite',
  schoolmaterials: '/schoolmaterials',
  paperbinding: '/paperbinding',
  analysis: {
    root: '/analysis',
    grade: '/analysis/grade',
    class: '/analysis/class',
    person: '/analysis/person',
  },
  correct: '/correct',
  write: '/write',
  paperlist: '/paperlist',
  print: {
    test: '/pringtingtest',
    printing: '/printing',
    grade: '/printgrade',
    answer: '/printanswer',
    code: '/printcode',
    barcode: '/printBarcode',
    gradeTest: '/printgradetest',
  },
  aboutUs: '/aboutUs',
  /** 使用说明: the product's own help pages (issue #22; not in SPEC's table). */
  help: '/help',
  bigData: '/bigData',
  largescreen: '/largescreen',
  answerCard: '/answerCard',
  assistant: {
    root: '/assistant',
    analysis: '/assistant/analysis',
    commentary: '/assistant/commentary',
    details: '/assistant/details',
    report: '/assistant/papaerReport',
  },
  dataCenter: {
    root: '/dataCenter',
    subject: '/dataCenter/subject',
    correctScore: '/dataCenter/correctScore',
    averageScore: '/dataCenter/averageScore',
  },
  rehearse: {
    root: '/rehearse',
    select: '/rehearse/SelectQuestionPaper',
    intellect: '/rehearse/intellectTestPaper',
    synchronization: '/rehearse/SynchronizationClass',
    goods: '/rehearse/GoodsPaper',
    mistakes: '/rehearse/MistakesExercise',
  },
  cloudResources: {
    root: '/cloudResources',
    personPaper: '/cloudResources/personPaper',
    schoolPaper: '/cloudResources/schoolPaper',
    schoolTestQuestions: '/cloudResources/schoolTestQuestions',
    recycleBin: '/cloudResources/recycleBin',
    paperSetting: '/cloudResources/paperSetting',
  },
} as const;

/** The printing routes of the layout rules. */
export const PRINTING_PATHS = Object.values(paths.print);
