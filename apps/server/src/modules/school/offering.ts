import { GRADES, SCHOOL_MESSAGES, type Grade, type OfferedSubjects } from '@zhzy/contracts';
import { AppError } from '../../lib/errors.js';
import type { AuditLog } from './audit.js';
import type { SchoolActor } from './policy.js';
import type { SchoolRepository } from './repository.js';
import { SCHOOL_TEXT } from '../../i18n/messages.js';

// What a school offers and who directs its grades: the subjects it teaches (all of the catalogue until it
// chooses) and the grade directors of each grade. Callers check the actor; these read and write.

export interface OfferingDeps {
  repo: SchoolRepository;
  log: AuditLog;
  now: () => string;
}

/** The subjects asked for, each once; refused when one is not in the catalogue. */
export async function checkSubjects(repo: SchoolRepository, subjectIds: string[]): Promise<string[]> {
  const unique = [...new Set(subjectIds)];
  const known = new Set((await repo.teaching.catalogueSubjects()).map((s) => s.id));
  if (unique.some((id) => !known.has(id))) throw new AppError('VALIDATION', SCHOOL_MESSAGES.subjectNotFound);
  return unique;
}

/** Subject ids the school offers: the ones it chose, or every subject while it has chosen none. */
export async function offeredIds(repo: SchoolRepository, orgId: string): Promise<Set<string>> {
  const chosen = await repo.teaching.offeredSubjectIds(orgId);
  if (chosen.length > 0) return new Set(chosen);
  return new Set((await repo.teaching.catalogueSubjects()).map((s) => s.id));
}

/** The catalogue's subjects by stage, each marked offered or not. */
export async function offered(repo: SchoolRepository, orgId: string): Promise<OfferedSubjects> {
  const ids = await offeredIds(repo, orgId);
  const stages: OfferedSubjects = [];
  for (const s of await repo.teaching.catalogueSubjects()) {
    let stage = stages.find((x) => x.stageId === s.stageId);
    if (!stage) {
      stage = { stageId: s.stageId, stageName: s.stageName, subjects: [] };
      stages.push(stage);
    }
    stage.subjects.push({ id: s.id, name: s.name, offered: ids.has(s.id) });
  }
  return stages;
}

export async function setSubjects(
  deps: OfferingDeps,
  actor: SchoolActor,
  subjectIds: string[],
): Promise<OfferedSubjects> {
  const ids = await checkSubjects(deps.repo, subjectIds);
  await deps.repo.transaction(async (repo) => {
    await repo.teaching.setOfferedSubjects(actor.orgId, ids);
    await deps.log.record(repo, actor, 'school.subjects', actor.orgId, SCHOOL_TEXT.subjectCount(ids.length));
  });
  return offered(deps.repo, actor.orgId);
}

/** The directors of each grade that has any, in grade order. */
export async function directors(repo: SchoolRepository, orgId: string) {
  const rows = await repo.members.gradeDirectors(orgId);
  return GRADES.filter((g) => rows.some((r) => r.grade === g)).map((grade) => ({
    grade,
    directors: rows
      .filter((r) => r.grade === grade)
      .map((r) => ({
        memberId: r.memberId,
        userId: r.userId,
        username: r.username,
        nickname: r.nickname,
      })),
  }));
}

/** Replaces the directors of one grade; members' grade-director flag follows. */
export async function setGradeDirectors(
  deps: OfferingDeps,
  actor: SchoolActor,
  input: { grade: Grade; memberIds: string[] },
) {
  const members = await deps.repo.members.membershipsIn(actor.orgId, [...new Set(input.memberIds)]);
  if (members.length !== new Set(input.memberIds).size)
    throw new AppError('VALIDATION', SCHOOL_MESSAGES.groupMemberNotInSchool);
  await deps.repo.transaction(async (repo) => {
    const before = (await repo.members.gradeDirectors(actor.orgId)).filter((r) => r.grade === input.grade);
    const userIds = members.map((m) => m.userId);
    await repo.members.setGradeDirectors(actor.orgId, input.grade, userIds, deps.now());
    await repo.members.syncGradeDirectorFlags(actor.orgId, [
      ...new Set([...userIds, ...before.map((b) => b.userId)]),
    ]);
    await deps.log.record(
      repo,
      actor,
      'grade.directors',
      null,
      SCHOOL_TEXT.gradeDirectors(input.grade, members.length),
    );
  });
  return directors(deps.repo, actor.orgId);
}
