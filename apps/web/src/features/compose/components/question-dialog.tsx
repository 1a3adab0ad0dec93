import { useEffect, useState } from 'react';
import type { PaperQuestion, QuestionType } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { LargeDialog } from '../../../components/ui/large-dialog';
import {
  QuestionFields,
  checkQuestion,
  isChoice,
  isJudge,
  relabel,
  type QuestionDraft,
  type QuestionErrors,
} from '../../../components/ui/question-fields';
import { t } from '../../../i18n/zh-CN';
import { composition } from '../../../i18n/composition';

const EMPTY_OPTIONS = relabel([{ content: '' }, { content: '' }, { content: '' }, { content: '' }]);

/** Adds the teacher's own question, or edits one of the paper (saved as a personal copy). */
export function QuestionDialog({
  open,
  mode,
  question,
  no,
  types,
  onSubmit,
  onClose,
}: {
  open: boolean;
  mode: 'add' | 'edit';
  /** The question being edited. */
  question?: PaperQuestion | null | undefined;
  no?: number;
  types: QuestionType[] | undefined;
  onSubmit: (value: QuestionDraft, typeName: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const [value, setValue] = useState<QuestionDraft>(() => initial(question, types));
  const [errors, setErrors] = useState<QuestionErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValue(initial(question, types));
    setErrors({});
  }, [open, question, types]);

  const typeName =
    mode === 'edit' ? (question?.typeName ?? '') : (types?.find((x) => x.id === value.typeId)?.name ?? '');

  const submit = async () => {
    const found = checkQuestion(value, typeName);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (await onSubmit(value, typeName)) onClose();
    } finally {
      setBusy(false);
    }
  };

  const formId = `question-form-${mode}`;
  return (
    <LargeDialog
      open={open}
      onClose={onClose}
      title={mode === 'add' ? composition.compose.addTitle : composition.compose.editTitle(no ?? 0)}
      lead={mode === 'edit' ? composition.compose.editHint : undefined}
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {mode === 'add' ? composition.compose.addSubmit : composition.compose.editSubmit}
          </Button>
        </div>
      }
    >
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <QuestionFields
          value={value}
          onChange={(next) => {
            // A new choice question starts with four empty options.
            const nextName = types?.find((x) => x.id === next.typeId)?.name ?? typeName;
            if (
              mode === 'add' &&
              next.typeId !== value.typeId &&
              isChoice(nextName) &&
              next.options.length === 0
            ) {
              next = { ...next, options: EMPTY_OPTIONS };
            }
            setValue(next);
          }}
          typeName={typeName}
          types={mode === 'add' ? types : undefined}
          errors={errors}
        />
      </form>
    </LargeDialog>
  );
}

function initial(
  question: PaperQuestion | null | undefined,
  types: QuestionType[] | undefined,
): QuestionDraft {
  if (question) {
    return {
      typeId: question.typeId,
      difficulty: question.difficulty,
      stem: question.stem,
      options: question.options,
      // Choice and true/false answers are plain letters or 正确/错误; other answers stay rich text.
      answer: isChoice(question.typeName)
        ? question.answer.replace(/<[^>]*>/g, '').replace(/[^A-H]/g, '')
        : isJudge(question.typeName)
          ? question.answer.replace(/<[^>]*>/g, '').trim()
          : question.answer,
      analysis: question.analysis,
    };
  }
  const first = types?.[0];
  return {
    typeId: first?.id ?? '',
    difficulty: 3,
    stem: '',
    options: first && isChoice(first.name) ? EMPTY_OPTIONS : [],
    answer: '',
    analysis: '',
  };
}
