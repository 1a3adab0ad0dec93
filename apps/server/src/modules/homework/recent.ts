import type { RecentHomeworkQuestions } from '../papers/service.js';
import type { HomeworkRepository } from './repository.js';

/**
 * The questions of each class's most recent homework: what smart composition avoids. The papers module takes this
 * as its `recentHomework` port.
 */
export function recentHomeworkQuestions(repo: HomeworkRepository): RecentHomeworkQuestions {
  return {
    async questionIdsOf(orgId, classIds) {
      const rows = await repo.latestHomeworkOfClasses(orgId, classIds);
      const latest = new Map<string, (typeof rows)[number]>();
      for (const r of rows) {
        const seen = latest.get(r.classId);
        const key = `${r.startDate}|${r.createdAt}|${r.id}`;
        if (!seen || key > `${seen.startDate}|${seen.createdAt}|${seen.id}`) latest.set(r.classId, r);
      }
      const snapshots = await repo.snapshotsOf([...new Set([...latest.values()].map((r) => r.id))]);
      const ids = new Set<string>();
      for (const s of snapshots) {
        if (!s.paper) continue;
        for (const section of s.paper.sections) for (const item of section.items) ids.add(item.questionId);
      }
      return [...ids];
    },
  };
}
