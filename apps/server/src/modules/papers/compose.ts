import { dayInZone, type PaperDocument, type SmartCompose, type SmartResult } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { optimise } from './optimiser.js';
import { questionFamily } from '../questions/family.js';
import { toPoints, toTenths } from '../results/scoring.js';
import { PAPERS_TEXT as T } from '../../i18n/papers.js';

import { names, subtreeIds } from './draft.js';
import type { Subject } from '../catalog/repository.js';
import { PapersCore } from './core.js';

// Smart composition: a paper picked by the optimiser from the chapters, knowledge points and types asked for.

type Picks = ReturnType<typeof optimise>['picks'];

/** Why the result is not what was asked: short types, avoided questions, difficulty, empty or missed points. */
function explain(
  body: SmartCompose,
  result: ReturnType<typeof optimise>,
  lookups: {
    typeName: Map<string, string>;
    kpTree: { id: string; parentId: string | null }[];
    kpName: Map<string, string>;
    coverable: Set<string>;
  },
): { explanations: string[]; missing: string[] } {
  const { typeName, kpTree, kpName, coverable } = lookups;
  const total = result.picks.reduce((s, p) => s + p.ids.length, 0);
  const explanations: string[] = [];
  if (total === 0) explanations.push(T.smartNothing);
  for (const p of result.picks) {
    const name = typeName.get(p.typeId) ?? '';
    if (p.ids.length < p.requested) {
      explanations.push(T.smartShort(name, p.ids.length, p.requested));
    }
    if (p.avoidedUsed > 0) {
      explanations.push(T.smartAvoided(name, p.avoidedUsed));
    }
  }
  if (total > 0 && !result.withinTolerance && result.difficulty !== null) {
    explanations.push(T.smartDifficulty(body.difficulty.toFixed(2), result.difficulty.toFixed(2)));
  }
  if (body.knowledgePointIds.length > 0) {
    const empty = body.knowledgePointIds.filter(
      (id) => !subtreeIds(kpTree, id).some((k) => coverable.has(k)),
    );
    if (empty.length > 0) {
      explanations.push(T.smartEmptyPoints(empty.length, names(empty, kpName)));
    }
  }
  const covered = new Set(result.covered);
  const missing = [...coverable].filter((k) => !covered.has(k));
  if (total > 0 && missing.length > 0) {
    explanations.push(T.smartMissedPoints(missing.length, names(missing, kpName)));
  }

  return { explanations, missing };
}

export class PapersCompose extends PapersCore {
  async smartCompose(auth: AuthContext, body: SmartCompose): Promise<SmartResult> {
    const orgId = requireSchool(auth);
    const subject = await this.repo.catalog.findSubject(body.subjectId);
    if (!subject) throw notFound(T.subjectNotFound);
    const types = await this.repo.typesByIds(body.types.map((t) => t.typeId));
    if (types.length !== body.types.length || types.some((t) => t.subjectId !== subject.id)) {
      throw new AppError('VALIDATION', T.typeOtherSubject);
    }
    const typeName = new Map(types.map((t) => [t.id, t.name]));
    if (body.classIds.length > 0) {
      const classes = await this.repo.classesOf(orgId, body.classIds);
      if (classes.length !== new Set(body.classIds).size) throw forbidden(T.classOtherSchool);
    }
    const avoid = new Set(await this.recentHomework.questionIdsOf(orgId, body.classIds));

    let booknodeIds: string[] | undefined;
    if (body.booknodeIds.length > 0) {
      const nodes = await this.repo.booknodesAround(body.booknodeIds);
      const known = new Set(nodes.map((n) => n.id));
      if (body.booknodeIds.some((id) => !known.has(id))) throw notFound(T.booknodeNotFound);
      booknodeIds = [...new Set(body.booknodeIds.flatMap((id) => subtreeIds(nodes, id)))];
    }
    const kpTree = await this.repo.catalog.listKnowledgePoints(subject.id);
    const kpName = new Map(kpTree.map((k) => [k.id, k.name]));
    let knowledgePointIds: string[] | undefined;
    if (body.knowledgePointIds.length > 0) {
      if (body.knowledgePointIds.some((id) => !kpName.has(id))) throw notFound(T.knowledgePointNotFound);
      knowledgePointIds = [...new Set(body.knowledgePointIds.flatMap((id) => subtreeIds(kpTree, id)))];
    }

    const candidates = await this.repo.pool({
      orgId,
      userId: auth.userId,
      subjectId: subject.id,
      typeIds: body.types.map((t) => t.typeId),
      booknodeIds,
      knowledgePointIds,
    });
    const requested = knowledgePointIds ? new Set(knowledgePointIds) : undefined;
    const coverable = new Set(
      candidates.flatMap((c) => c.knowledgePointIds).filter((k) => !requested || requested.has(k)),
    );
    const result = optimise({
      candidates: candidates.map((c) => ({ ...c, family: questionFamily(c.id) })),
      types: body.types.map((t) => ({ typeId: t.typeId, count: t.count, scoreTenths: toTenths(t.score) })),
      target: body.difficulty,
      avoid,
      universe: coverable,
      seed: body.seed,
    });

    const total = result.picks.reduce((s, p) => s + p.ids.length, 0);
    const { explanations, missing } = explain(body, result, { typeName, kpTree, kpName, coverable });
    const questions = await this.questionsFor(result.picks.flatMap((p) => p.ids));
    const paper = body.createPaper
      ? await this.composedPaper(auth, orgId, subject, body, result.picks, typeName)
      : null;
    const scoreOf = new Map(body.types.map((t) => [t.typeId, t.score]));
    return {
      selections: result.picks.map((p) => ({
        typeId: p.typeId,
        typeName: typeName.get(p.typeId) ?? '',
        requested: p.requested,
        score: scoreOf.get(p.typeId) ?? 0,
        questions: p.ids.map((id) => questions.get(id)!).filter(Boolean),
      })),
      targetDifficulty: body.difficulty,
      achievedDifficulty: total > 0 ? Math.round(result.difficulty! * 1000) / 1000 : null,
      withinTolerance: total > 0 && result.withinTolerance,
      coverage: {
        covered: result.covered.map((id) => ({ id, name: kpName.get(id) ?? id })),
        missing: missing.map((id) => ({ id, name: kpName.get(id) ?? id })),
      },
      explanations,
      totalScore: toPoints(
        result.picks.reduce((s, p) => s + p.ids.length * toTenths(scoreOf.get(p.typeId) ?? 0), 0),
      ),
      paper,
    };
  }

  /** The composed paper, saved as a draft of the caller's. */
  private async composedPaper(
    auth: AuthContext,
    orgId: string,
    subject: Subject,
    body: SmartCompose,
    picks: Picks,
    typeName: Map<string, string>,
  ): Promise<PaperDocument> {
    const total = picks.reduce((s, p) => s + p.ids.length, 0);
    if (total === 0) throw new AppError('VALIDATION', T.smartNone);
    const textbookId = await this.checkTextbook(subject.id, body.textbookId ?? null);
    const row = await this.create(auth, {
      subjectId: subject.id,
      textbookId,
      source: 'smart',
      draft: {
        title:
          body.title ??
          T.smartTitle(
            `${subject.stageName}${subject.name}`,
            dayInZone(this.now(), await this.repo.schoolTimeZone(orgId)),
          ),
        subtitle: '',
        status: 'draft',
        sections: picks
          .filter((p) => p.ids.length > 0)
          .map((p, i) => ({
            typeId: p.typeId,
            title: typeName.get(p.typeId) ?? '',
            note: '',
            defaultScore: body.types[i]?.score ?? 0,
            items: p.ids.map((questionId) => ({ questionId, score: null })),
          })),
      },
    });
    return this.document(row, auth);
  }

  // ───────────── Word ─────────────
}
