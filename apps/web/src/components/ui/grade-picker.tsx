import { GRADES } from '@zhzy/contracts';
import { Listbox } from './listbox';

/** One dropdown of the grades (七年级 …), an empty choice first ('' = no grade). */
export function GradePicker({
  label,
  value,
  onChange,
  placeholder,
  noneLabel,
}: {
  label: string;
  /** '' when no grade is chosen. */
  value: string;
  onChange: (grade: string) => void;
  placeholder: string;
  /** The label of the empty choice. */
  noneLabel: string;
}) {
  return (
    <Listbox
      label={label}
      value={value}
      placeholder={placeholder}
      options={[{ value: '', label: noneLabel }, ...GRADES.map((g) => ({ value: g, label: g }))]}
      onChange={onChange}
    />
  );
}
