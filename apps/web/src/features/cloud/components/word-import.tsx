import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { DIFFICULTY_LEVELS, type ImportPreview, type ImportedQuestion } from '@zhzy/contracts';
import { RichText } from '../../../components/rich-text';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { Listbox } from '../../../components/ui/listbox';
import {
  QuestionFields,
  checkQuestion,
  isChoice,
  relabel,
  type QuestionDraft,
} from '../../../components/ui/question-fields';
import { SubjectPicker } from '../../../components/ui/subject-picker';
import { AlertIcon } from '../../../components/icons';
import { paths, withQuery } from '../../../config/paths';
import { t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';
import { useSelection } from '../../../lib/selection';
import { toast } from '../../../lib/toast';
import { cn } from '../../../lib/utils';
import { useQuestionTypes, useStages } from '../../../api/catalog';
import { previewWord, saveWord } from '../api/word';

const w = composition.word;
const DOCX = '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

type Section = ImportPreview['sections'][number];

const scoreOk = (v: number | null) =>
  v === null || (v >= 0 && v <= 200 && Math.abs(v * 10 - Math.round(v * 10)) < 1e-6);

/** 导入Word: upload a .docx, fix what was misread question by question, save, and continue in /edit. */
export function WordImport({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const selection = useSelection();
  const { data: stages } = useStages();
  const [subjectId, setSubjectId] = useState<string | null>(selection?.subjectId ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [title, setTitle] = useState('');
  const [subtitle, setSubtitle] = useState('');
  const [sections, setSections] = useState<Section[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const { data: types } = useQuestionTypes(preview?.subjectId ?? subjectId);

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setPreview(null);
    setEditing(null);
    setSubjectId(selection?.subjectId ?? null);
  }, [open, selection?.subjectId]);

  const read = async () => {
    if (!file || !subjectId) return;
    if (!file.name.toLowerCase().endsWith('.docx')) {
      toast.error(w.notDocx);
      return;
    }
    setBusy(true);
    try {
      const p = await previewWord(file, subjectId);
      setPreview(p);
      setTitle(p.title || file.name.replace(/\.docx$/i, ''));
      setSubtitle(p.subtitle);
      setSections(p.sections);
    } catch {
      // The client showed the host's message.
    } finally {
      setBusy(false);
    }
  };

  const typeName = (id: string) => types?.find((x) => x.id === id)?.name ?? '';
  const problems = sections.flatMap((s) =>
    s.questions.filter((q) => Object.keys(checkQuestion(toDraft(q), typeName(q.typeId))).length > 0),
  );
  const count = sections.reduce((n, s) => n + s.questions.length, 0);

  const setQuestion = (si: number, qi: number, q: ImportedQuestion) =>
    setSections((list) =>
      list.map((s, i) => (i === si ? { ...s, questions: s.questions.map((x, j) => (j === qi ? q : x)) } : s)),
    );
  const removeQuestion = (si: number, qi: number) =>
    setSections((list) =>
      list
        .map((s, i) => (i === si ? { ...s, questions: s.questions.filter((_, j) => j !== qi) } : s))
        .filter((s) => s.questions.length > 0),
    );

  const save = async () => {
    if (!preview) return;
    if (!title.trim()) {
      toast.error(w.titleRequired);
      return;
    }
    if (problems.length > 0) {
      toast.error(w.fixFirst(problems.length));
      return;
    }
    setBusy(true);
    try {
      const doc = await saveWord({
        subjectId: preview.subjectId,
        title: title.trim(),
        subtitle: subtitle.trim(),
        sections: sections.map((s) => ({
          ...s,
          questions: s.questions.map((q) => ({
            ...q,
            options: isChoice(typeName(q.typeId)) ? relabel(q.options) : q.options,
            warnings: [],
          })),
        })),
      });
      toast.success(w.saved);
      onClose();
      void navigate(withQuery(paths.edit, { paperId: doc.id }));
    } catch {
      // The client showed the host's message.
    } finally {
      setBusy(false);
    }
  };

  if (!preview) {
    return (
      <Dialog open={open} onClose={onClose} title={w.title}>
        <p className="-mt-2 mb-4 text-sm leading-6 text-slate-500">{w.intro}</p>
        <div className="space-y-4">
          <SubjectPicker
            stages={stages}
            value={subjectId}
            onChange={(v) => setSubjectId(v?.subjectId ?? null)}
          />
          <div>
            <input
              ref={fileRef}
              type="file"
              accept={DOCX}
              className="sr-only"
              aria-label={w.chooseFile}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <button
              type="button"
              onClick={() => fileRef.current?.click()}
              className="flex w-full flex-col items-center gap-1 rounded-lg border-2 border-dashed border-slate-300 px-4 py-8 text-sm text-slate-500 hover:border-blue-400 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              <span className="font-medium text-slate-700">{file ? file.name : w.chooseFile}</span>
              <span className="text-xs">{w.fileHint}</span>
            </button>
          </div>
          <details className="text-xs leading-5 text-slate-500">
            <summary className="cursor-pointer text-slate-600">{w.formatTitle}</summary>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {w.format.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        </div>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button loading={busy} disabled={!file || !subjectId} onClick={() => void read()}>
            {w.read}
          </Button>
        </div>
      </Dialog>
    );
  }

  let no = 0;
  return (
    <LargeDialog
      open={open}
      onClose={onClose}
      title={w.reviewTitle}
      width="xl"
      footer={
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button variant="ghost" onClick={() => setPreview(null)}>
            {w.another}
          </Button>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={onClose}>
              {t.cancel}
            </Button>
            <Button loading={busy} disabled={count === 0} onClick={() => void save()}>
              {w.save}
            </Button>
          </div>
        </div>
      }
    >
      <div className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="text-sm text-slate-600">
            {w.paperTitle}
            <input
              value={title}
              maxLength={80}
              onChange={(e) => setTitle(e.target.value)}
              className="mt-1 h-9 w-full rounded-md border border-slate-300 px-3 text-sm text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
            />
          </label>
          <label className="text-sm text-slate-600">
            {w.subtitle}
            <input
              value={subtitle}
              maxLength={120}
              onChange={(e) => setSubtitle(e.target.value)}
              className="mt-1 h-9 w-full rounded-md border border-slate-300 px-3 text-sm text-slate-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
            />
          </label>
        </div>
        <p className="text-sm text-slate-600">{w.summary(count, problems.length)}</p>
        {preview.warnings.length > 0 && (
          <ul className="space-y-1 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {preview.warnings.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        )}
        <div className="space-y-5">
          {sections.map((section, si) => (
            <section key={si} aria-label={section.title} className="space-y-3">
              <div className="flex flex-wrap items-center gap-3 rounded-lg bg-slate-50 px-3 py-2">
                <input
                  aria-label={w.sectionTitle(si + 1)}
                  value={section.title}
                  maxLength={40}
                  onChange={(e) =>
                    setSections((l) => l.map((s, i) => (i === si ? { ...s, title: e.target.value } : s)))
                  }
                  className="h-8 w-40 rounded-md border border-slate-300 bg-white px-2 text-sm font-semibold focus:border-blue-500 focus:outline-none"
                />
                <Listbox
                  label={w.sectionType}
                  value={section.typeId}
                  placeholder={w.sectionType}
                  options={(types ?? []).map((x) => ({ value: x.id, label: x.name }))}
                  onChange={(typeId) =>
                    setSections((l) => l.map((s, i) => (i === si ? { ...s, typeId } : s)))
                  }
                />
                <label className="flex items-center gap-1.5 text-sm text-slate-600">
                  {composition.compose.eachScore}
                  <input
                    inputMode="decimal"
                    aria-label={w.sectionScore(si + 1)}
                    defaultValue={section.defaultScore}
                    onChange={(e) => {
                      const v = Number(e.target.value);
                      if (e.target.value.trim() !== '' && scoreOk(v))
                        setSections((l) => l.map((s, i) => (i === si ? { ...s, defaultScore: v } : s)));
                    }}
                    className="h-8 w-14 rounded-md border border-slate-300 bg-white px-2 text-center text-sm focus:border-blue-500 focus:outline-none"
                  />
                  {composition.compose.points}
                </label>
              </div>
              <ol className="space-y-2">
                {section.questions.map((q, qi) => {
                  no += 1;
                  const key = `${si}-${qi}`;
                  const errors = checkQuestion(toDraft(q), typeName(q.typeId));
                  const bad = Object.keys(errors).length > 0;
                  const open = editing === key;
                  return (
                    <li
                      key={key}
                      className={cn(
                        'rounded-lg border px-4 py-3',
                        bad || q.warnings.length > 0 ? 'border-amber-300' : 'border-slate-200',
                      )}
                    >
                      <div className="flex items-start gap-3">
                        <span className="shrink-0 text-sm font-medium text-slate-500">{no}.</span>
                        <div className="min-w-0 flex-1 text-sm">
                          <div className="mb-1 flex flex-wrap gap-2 text-xs text-slate-500">
                            <span className="rounded bg-slate-100 px-1.5 py-0.5">{typeName(q.typeId)}</span>
                            <span>{DIFFICULTY_LEVELS[q.difficulty - 1]}</span>
                            {q.score !== null && <span>{w.ownScore(q.score)}</span>}
                          </div>
                          {!open && <RichText html={q.stem} className="line-clamp-3" />}
                          {[...q.warnings, ...Object.values(errors)].map((x) => (
                            <p key={x} className="mt-1 flex items-start gap-1 text-xs text-amber-800">
                              <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
                              {x}
                            </p>
                          ))}
                        </div>
                        <div className="flex shrink-0 gap-1">
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-expanded={open}
                            aria-label={w.fixOf(no)}
                            onClick={() => setEditing(open ? null : key)}
                          >
                            {open ? w.done : w.fix}
                          </Button>
                          <Button
                            variant="ghost"
                            size="sm"
                            className="hover:text-red-600"
                            aria-label={w.removeOf(no)}
                            onClick={() => removeQuestion(si, qi)}
                          >
                            {composition.compose.remove}
                          </Button>
                        </div>
                      </div>
                      {open && (
                        <div className="mt-3 border-t border-slate-100 pt-3">
                          <QuestionFields
                            value={toDraft(q)}
                            typeName={typeName(q.typeId)}
                            types={types}
                            errors={errors}
                            onChange={(d) => setQuestion(si, qi, { ...q, ...d, warnings: [] })}
                          />
                        </div>
                      )}
                    </li>
                  );
                })}
              </ol>
            </section>
          ))}
        </div>
      </div>
    </LargeDialog>
  );
}

function toDraft(q: ImportedQuestion): QuestionDraft {
  return {
    typeId: q.typeId,
    difficulty: q.difficulty,
    stem: q.stem,
    options: q.options,
    answer: q.answer,
    analysis: q.analysis,
  };
}
