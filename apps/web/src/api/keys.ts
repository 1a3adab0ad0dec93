/**
 * The SWR cache keys that more than one feature reads or writes, each defined once. A key names the data, not the
 * screen: two features reading the same call with the same input share one cached answer, and a write in one
 * feature refreshes what another shows. Keys only one feature uses stay in that feature's `api/`.
 */
export const keys = {
  stages: () => ['system/stages'] as const,
  textbooks: (subjectId: string) => ['teacher/textbooks', subjectId] as const,
  booknodes: (textbookId: string) => ['teacher/booknodes', textbookId] as const,
  knowledgeTree: (subjectId: string) => ['teacher/knowledge', subjectId] as const,
  questionTypes: (subjectId: string) => ['teacher/question-types', subjectId] as const,
  similarQuestions: (questionId: string, size: number, exclude: readonly string[]) =>
    ['teacher/question/similar', questionId, size, exclude.join(',')] as const,
  basket: () => ['teacher/basket'] as const,
  paperDetail: (paperId: string) => ['teacher/paper/detail', paperId] as const,
  /** Paper lists: `[PAPER_LIST, kind, …the list's own input]`. */
  paperList: (kind: string, ...input: string[]) => [PAPER_LIST, kind, ...input] as const,
  /** Homework lists: `[HOMEWORK_LIST, …the list's own input]`, revalidated together by the prefix. */
  homeworkList: (...input: string[]) => [HOMEWORK_LIST, ...input] as const,
  homeworkDetail: (homeworkId: string) => ['teacher/homework/detail', homeworkId] as const,
  scanBatches: (homeworkId: string | null) => ['scan-batches', homeworkId] as const,
  paperScores: (homeworkId: string, state: string) =>
    ['teacher/homework/paper-scores', homeworkId, state] as const,
  defaultYearClasses: (orgId: string) => ['system/class/default-year-classes', orgId] as const,
  classStudents: (classId: string) => ['teacher/analysis/students', classId] as const,
  schoolDetail: (orgId: string | null) => [SCHOOL_DATA, 'detail', orgId] as const,
  schoolSubjects: (orgId: string) => [SCHOOL_DATA, 'subjects', orgId] as const,
  schoolMembers: (orgId: string, keyword: string, role: string) =>
    [SCHOOL_DATA, 'members', orgId, keyword, role] as const,
};

/** Prefix of every paper list key. */
export const PAPER_LIST = 'teacher/paper/list';
/** Prefix of every homework list key. */
export const HOMEWORK_LIST = 'teacher/homework/list';
/** Prefix of the school data the school and team screens share (revalidated by both after a write). */
export const SCHOOL_DATA = 'system/school';
