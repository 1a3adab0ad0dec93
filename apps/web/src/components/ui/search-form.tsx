import { useState } from 'react';
import { cn } from '../../lib/utils';
import { Button, type ButtonProps } from './button';

export interface SearchFormProps {
  /** The field's accessible name. */
  label: string;
  placeholder: string;
  /** The submit button's text. */
  submit: string;
  /** Called with the trimmed text when the form is submitted. */
  onSearch: (keyword: string) => void;
  /** The keyword in force: when given, emptying the field while one is in force searches '' at once. */
  active?: string;
  /** The field's text, for a screen that resets or follows it; without it the form keeps its own. */
  text?: string;
  onTextChange?: (text: string) => void;
  maxLength?: number;
  className?: string;
  inputClassName?: string;
  button?: Pick<ButtonProps, 'variant' | 'size' | 'className'>;
}

/** The keyword search form of the list screens: one search field and its button. */
export function SearchForm({
  label,
  placeholder,
  submit,
  onSearch,
  active,
  text,
  onTextChange,
  maxLength,
  className = 'flex gap-2',
  inputClassName,
  button,
}: SearchFormProps) {
  const [own, setOwn] = useState('');
  const value = text ?? own;
  const setValue = onTextChange ?? setOwn;
  return (
    <form
      role="search"
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(value.trim());
      }}
    >
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        maxLength={maxLength}
        onChange={(e) => {
          setValue(e.target.value);
          if (e.target.value === '' && active) onSearch('');
        }}
        className={cn(
          'h-9 min-w-0 flex-1 rounded-md border border-slate-300 px-3 text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none',
          inputClassName,
        )}
      />
      <Button type="submit" {...button}>
        {submit}
      </Button>
    </form>
  );
}
