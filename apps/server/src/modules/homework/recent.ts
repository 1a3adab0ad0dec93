import { HomeworkPaperSchema } from '@zhzy/contracts';
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
        const seen = latest.get(r.class_id);
        const key = `${r.start_date}|${r.created_at}|${r.id}`;
        if (!seen || key > `${seen.start_date}|${seen.created_at}|${seen.id}`) latest.set(r.class_id, r);
      }
      const snapshots = await repo.snapshotsOf([...new Set([...latest.values()].map((r) => r.id))]);
      const ids = new Set<string>();
      for (const s of snapshots) {
        const parsed = HomeworkPaperSchema.safeParse(JSON.parse(s.paper_snapshot));
        if (!parsed.success) continue;
        for (const section of parsed.data.sections)
          for (const item of section.items) ids.add(item.questionId);
      }
      return [...ids];
    },
  };
}
