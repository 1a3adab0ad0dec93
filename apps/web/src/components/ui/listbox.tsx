import {
  Listbox as HListbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
  Label,
  Field,
} from '@headlessui/react';
import { CheckIcon, ChevronDownIcon } from '../icons';
import { cn } from '../../lib/utils';

export interface ListboxItem<V extends string> {
  value: V;
  label: string;
}

/** A labelled single-choice dropdown (keyboard: arrows, typeahead, Enter, Escape). */
export function Listbox<V extends string>({
  label,
  hideLabel = false,
  value,
  onChange,
  options,
  placeholder,
  disabled = false,
  className,
  buttonClassName,
}: {
  label: string;
  hideLabel?: boolean;
  value: V | null;
  onChange: (value: V) => void;
  options: ListboxItem<V>[];
  placeholder: string;
  disabled?: boolean;
  className?: string;
  buttonClassName?: string;
}) {
  const current = options.find((o) => o.value === value);
  return (
    <Field className={cn('flex items-center gap-2', className)} disabled={disabled}>
      <Label className={cn('text-sm text-slate-500', hideLabel && 'sr-only')}>{label}</Label>
      <HListbox value={value ?? ('' as V)} onChange={onChange} disabled={disabled}>
        <ListboxButton
          className={cn(
            'relative flex h-9 min-w-0 items-center gap-2 rounded-md border border-slate-300 bg-white pr-8 pl-3 text-left text-sm text-slate-800 shadow-sm',
            'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 data-disabled:bg-slate-50 data-disabled:text-slate-500',
            buttonClassName,
          )}
        >
          <span className={cn('truncate', !current && 'text-slate-500')}>
            {current?.label ?? placeholder}
          </span>
          <ChevronDownIcon className="pointer-events-none absolute right-2.5 size-4 text-slate-500" />
        </ListboxButton>
        <ListboxOptions
          anchor={{ to: 'bottom start', gap: 4 }}
          className="z-50 max-h-72 w-(--button-width) min-w-44 overflow-auto rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none"
        >
          {options.map((o) => (
            <ListboxOption
              key={o.value}
              value={o.value}
              className="group flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 text-slate-700 select-none data-focus:bg-blue-50 data-focus:text-blue-700 data-selected:font-medium"
            >
              <CheckIcon className="invisible size-4 text-blue-600 group-data-selected:visible" />
              <span className="truncate">{o.label}</span>
            </ListboxOption>
          ))}
        </ListboxOptions>
      </HListbox>
    </Field>
  );
}
