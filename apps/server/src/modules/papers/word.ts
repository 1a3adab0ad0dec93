import type { z } from 'zod';
import { MESSAGES, type ImportPreview, type PaperDocument, type ImportSaveSchema } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireSchool } from '../../lib/scope.js';
import { newId } from '../../lib/ids.js';
import { ZipGuardError } from '../../lib/zip-guard.js';
import { SandboxLimitError, limitRefusal } from '../../lib/sandbox/pool.js';
import { assertReadable } from './policy.js';
import type { PapersRepository } from './repository.js';
// One sanitiser for all rich content: the question bank's (it also keeps formulas intact).
import { richTextToPlain as plainText, sanitizeRichText as sanitizeRich } from '../questions/rich-content.js';
import { contentText, tokenize } from '../questions/search-text.js';
import type { ParsedPaper } from './word-import.js';
import { IMPORT_TYPE_NAMES, PAPERS_TEXT as T, TRUE_FALSE_ANSWER } from '../../i18n/papers.js';

import { defaultScoreOf, names, type Draft } from './draft.js';
import { PapersCompose } from './compose.js';

// Word import (preview, knowledge point suggestions, saving) and export of papers.

export class PapersWord extends PapersCompose {
  async exportWord(auth: AuthContext, id: string, copy: 'student' | 'teacher') {
    const paper = assertReadable(await this.repo.findPaper(id), auth);
    const doc = await this.document(paper, auth);
    const buffer = Buffer.from(
      await this.sandbox()
        .run('renderPaperDocx', [doc, copy])
        .catch((error: unknown) => {
          throw limitRefusal(error);
        }),
    );
    const suffix = copy === 'teacher' ? T.teacherCopySuffix : '';
    return { buffer, filename: `${doc.title}${suffix}.docx` };
  }

  async importPreview(auth: AuthContext, subjectId: string, bytes: Uint8Array): Promise<ImportPreview> {
    requireSchool(auth);
    const subject = await this.repo.catalog.findSubject(subjectId);
    if (!subject) throw notFound(T.subjectNotFound);
    let parsed: ParsedPaper;
    try {
      // Parsed in the document sandbox: a hostile document costs a child process, never the host's event loop.
      parsed = await this.sandbox().run('parseDocx', [bytes]);
    } catch (error) {
      if (error instanceof ZipGuardError && error.problem === 'tooLarge')
        throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.archiveTooLarge, { detail: error.message });
      if (error instanceof SandboxLimitError) throw limitRefusal(error);
      throw new AppError('VALIDATION', T.unreadableWord);
    }
    const types = await this.repo.catalog.listQuestionTypes(subject.id);
    const kps = await this.repo.catalog.listKnowledgePoints(subject.id);
    const preview = previewFor(parsed, subject.id, types, kps);
    await this.suggestKnowledgePoints(preview, subject.id, kps);
    return preview;
  }

  /**
   * A question imported without 【知识点】 gets the knowledge points of the bank question most like it, when one is
   * close enough (most of its distinctive words are shared), with a note asking the teacher to check them.
   */
  protected async suggestKnowledgePoints(
    preview: ImportPreview,
    subjectId: string,
    kps: { id: string; name: string }[],
  ): Promise<void> {
    const nameOf = new Map(kps.map((k) => [k.id, k.name]));
    for (const section of preview.sections) {
      for (const q of section.questions) {
        if (q.knowledgePointIds.length > 0) continue;
        const words = distinctiveWords([q.stem, ...q.options.map((o) => o.content)].join('\n'));
        if (words.length < MIN_SUGGESTION_WORDS) continue;
        const related = await this.repo.relatedQuestions(subjectId, words, SUGGESTION_CANDIDATES);
        const best = related
          .map((r) => ({ id: r.id, share: sharedShare(words, r.tokens) }))
          .sort((a, b) => b.share - a.share)[0];
        if (!best || best.share < SUGGESTION_MIN_SHARE) continue;
        const ids = (await this.repo.knowledgePointsOf([best.id]))
          .map((k) => k.id)
          .filter((id) => nameOf.has(id));
        if (ids.length === 0) continue;
        q.knowledgePointIds = ids;
        q.warnings.push(T.suggestedPoints(q.no, names(ids, nameOf)));
      }
    }
  }

  async importSave(auth: AuthContext, body: z.output<typeof ImportSaveSchema>): Promise<PaperDocument> {
    const orgId = requireSchool(auth);
    const subject = await this.repo.catalog.findSubject(body.subjectId);
    if (!subject) throw notFound(T.subjectNotFound);
    const textbookId = await this.checkTextbook(subject.id, body.textbookId ?? null);
    const types = new Map((await this.repo.catalog.listQuestionTypes(subject.id)).map((t) => [t.id, t]));
    const kpIds = new Set((await this.repo.catalog.listKnowledgePoints(subject.id)).map((k) => k.id));
    const now = this.now();
    const draft: Draft = { title: body.title, subtitle: body.subtitle, status: 'draft', sections: [] };
    const questions: Parameters<PapersRepository['insertQuestion']>[0][] = [];
    for (const section of body.sections) {
      if (!types.has(section.typeId)) throw new AppError('VALIDATION', T.importTypeOtherSubject);
      const items: Draft['sections'][number]['items'] = [];
      for (const q of section.questions) {
        if (!types.has(q.typeId)) throw new AppError('VALIDATION', T.importTypeOtherSubject);
        const stem = sanitizeRich(q.stem);
        if (!plainText(stem) && !stem.includes('<img')) {
          throw new AppError('VALIDATION', T.emptyStem(q.no));
        }
        const id = newId();
        questions.push({
          id,
          subjectId: subject.id,
          typeId: q.typeId,
          orgId,
          ownerUserId: auth.userId,
          difficulty: q.difficulty,
          stem,
          options: q.options.map((o) => ({ label: o.label, content: sanitizeRich(o.content) })),
          answer: sanitizeRich(q.answer),
          analysis: sanitizeRich(q.analysis),
          year: new Date(this.clock()).getUTCFullYear(),
          source: T.importSource,
          createdAt: now,
          booknodeIds: [],
          knowledgePointIds: q.knowledgePointIds.filter((k) => kpIds.has(k)),
        });
        items.push({ questionId: id, score: q.score });
      }
      draft.sections.push({
        typeId: section.typeId,
        title: section.title,
        note: '',
        defaultScore: section.defaultScore,
        items,
      });
    }
    // The questions first (in one transaction), then the paper that holds them.
    await this.repo.transaction(async (repo) => {
      for (const q of questions) await repo.insertQuestion(q);
    });
    const row = await this.create(auth, { subjectId: subject.id, textbookId, source: 'word', draft });
    return this.document(row, auth);
  }
}

/** A question needs this many distinctive words before a suggestion is trusted. */
const MIN_SUGGESTION_WORDS = 3;
/** Bank questions compared with each imported one. */
const SUGGESTION_CANDIDATES = 5;
/** Share of the imported question's distinctive words a bank question must hold to lend its knowledge points. */
const SUGGESTION_MIN_SHARE = 0.6;
/** Words looked up per question (the first ones: a stem says what it is about early). */
const SUGGESTION_MAX_WORDS = 24;

/** Words of two or more characters that are not numbers: what tells one question's topic from another's. */
export function distinctiveWords(html: string): string[] {
  const words = tokenize(contentText(html)).filter((w) => w.length >= 2 && !/^\d+$/.test(w));
  return [...new Set(words)].slice(0, SUGGESTION_MAX_WORDS);
}

/** Share of `words` found among a bank question's indexed tokens. */
export function sharedShare(words: readonly string[], tokens: string): number {
  if (words.length === 0) return 0;
  const have = new Set(tokens.split(' '));
  return words.filter((w) => have.has(w)).length / words.length;
}

/**
 * Chooses a question's type among the subject's: the section's type by name, else single or multiple choice by
 * the answer where there are options, else true/false by the answer, else the fallback type.
 */
function typePicker(types: { id: string; name: string; objective: boolean }[]) {
  const byName = new Map(types.map((t) => [t.name, t]));
  const fallback = types.find((t) => t.name === IMPORT_TYPE_NAMES.fallback) ?? types.at(-1);
  if (!fallback) throw new AppError('VALIDATION', T.noTypes);
  const pickType = (name: string | null, hasOptions: boolean, answer: string) => {
    if (name) {
      const exact = byName.get(name);
      if (exact) return exact;
    }
    if (hasOptions) {
      const multi = /^[A-H]{2,}$/.test(answer.replace(/[\s,，、]/g, ''));
      return (
        byName.get(multi ? IMPORT_TYPE_NAMES.multiple : IMPORT_TYPE_NAMES.single) ??
        byName.get(IMPORT_TYPE_NAMES.single) ??
        fallback
      );
    }
    if (TRUE_FALSE_ANSWER.test(answer.trim()) && byName.has(IMPORT_TYPE_NAMES.trueFalse))
      return byName.get(IMPORT_TYPE_NAMES.trueFalse)!;
    if (name && byName.has(name)) return byName.get(name)!;
    return fallback;
  };
  return { byName, fallback, pickType };
}

/** Maps a parsed document to the subject's types and knowledge points, adding warnings. */
export function previewFor(
  parsed: ParsedPaper,
  subjectId: string,
  types: { id: string; name: string; objective: boolean }[],
  kps: { id: string; name: string }[],
): ImportPreview {
  const warnings = [...parsed.warnings];
  const { byName, fallback, pickType } = typePicker(types);
  const kpByName = new Map(kps.map((k) => [k.name, k.id]));
  const sections: ImportPreview['sections'] = [];
  let count = 0;
  for (const s of parsed.sections) {
    const out: ImportPreview['sections'][number] = {
      title: s.title,
      typeId: '',
      defaultScore: s.score ?? 0,
      questions: [],
    };
    for (const q of s.questions) {
      count += 1;
      const qWarnings = [...q.warnings];
      const type = pickType(s.typeName, q.options.length > 0, plainText(q.answer));
      const kpIds: string[] = [];
      for (const name of q.knowledgePoints) {
        const id = kpByName.get(name);
        if (id) kpIds.push(id);
        else qWarnings.push(T.unknownPoint(q.no, name));
      }
      if (type.objective && q.options.length === 0 && type.name !== IMPORT_TYPE_NAMES.trueFalse) {
        qWarnings.push(T.noOptions(q.no, type.name));
      }
      out.questions.push({
        no: q.no,
        typeId: type.id,
        stem: q.stem,
        options: q.options,
        answer: q.answer,
        analysis: q.analysis,
        difficulty: 3,
        knowledgePointIds: kpIds,
        score: null,
        warnings: qWarnings,
      });
    }
    const firstType = out.questions[0]?.typeId;
    out.typeId = (s.typeName ? byName.get(s.typeName)?.id : undefined) ?? firstType ?? fallback.id;
    if (!s.score) {
      const typeName = types.find((t) => t.id === out.typeId)?.name ?? '';
      out.defaultScore = defaultScoreOf(typeName);
      if (out.questions.length > 0) warnings.push(T.defaultScoreUsed(s.title, out.defaultScore));
    }
    if (out.questions.length > 0) sections.push(out);
  }
  if (count === 0) warnings.push(T.nothingRecognised);
  return {
    subjectId,
    title: parsed.title,
    subtitle: parsed.subtitle,
    sections,
    warnings,
    questionCount: count,
    source: parsed.source ?? [],
  };
}
