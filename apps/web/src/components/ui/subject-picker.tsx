import type { Stage } from '@zhzy/contracts';
import { Listbox } from './listbox';
import { t } from '../../i18n/zh-CN';

export interface SubjectValue {
  stageId: string;
  subjectId: string;
}

/** One dropdown of every stage's subjects (初中数学, 初中英语 …). */
export function SubjectPicker({
  stages,
  value,
  onChange,
  label = t.ui.subject,
  allowAll = false,
  className,
}: {
  stages: Stage[] | undefined;
  value: string | null;
  onChange: (v: SubjectValue | null) => void;
  label?: string;
  /** Offer 全部学科 (a list filter) first. */
  allowAll?: boolean;
  className?: string;
}) {
  const options = (stages ?? []).flatMap((s) =>
    s.subjects.map((x) => ({ value: x.id, label: `${s.name}${x.name}`, stageId: s.id })),
  );
  const all = { value: '', label: t.ui.allSubjects, stageId: '' };
  const list = allowAll ? [all, ...options] : options;
  return (
    <Listbox
      label={label}
      value={value ?? (allowAll ? '' : null)}
      placeholder={t.ui.chooseSubject}
      disabled={!stages}
      className={className}
      options={list.map((o) => ({ value: o.value, label: o.label }))}
      onChange={(id) => {
        const hit = options.find((o) => o.value === id);
        onChange(hit ? { stageId: hit.stageId, subjectId: hit.value } : null);
      }}
    />
  );
}
