import { Menu as HMenu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../../lib/utils';

export type MenuEntry =
  | { kind: 'link'; label: string; to: string; icon?: ReactNode }
  | { kind: 'external'; label: string; href: string; icon?: ReactNode }
  | { kind: 'action'; label: string; onSelect: () => void; icon?: ReactNode; danger?: boolean }
  | { kind: 'separator'; key: string };

const itemClass =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100 data-focus:text-slate-900';

/** A dropdown menu of links and actions (keyboard: arrows, Enter, Escape). */
export function Menu({
  button,
  label,
  items,
  anchor = 'bottom end',
  buttonClassName,
}: {
  button: ReactNode;
  label: string;
  items: MenuEntry[];
  anchor?: 'bottom end' | 'bottom start' | 'bottom';
  buttonClassName?: string;
}) {
  return (
    <HMenu>
      <MenuButton
        aria-label={label}
        className={cn(
          'inline-flex items-center gap-1.5 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
          buttonClassName,
        )}
      >
        {button}
      </MenuButton>
      <MenuItems
        anchor={{ to: anchor, gap: 6 }}
        className="z-40 min-w-40 rounded-lg border border-slate-200 bg-white p-1 shadow-lg focus:outline-none"
      >
        {items.map((item) => {
          switch (item.kind) {
            case 'separator':
              return <MenuSeparator key={item.key} className="my-1 h-px bg-slate-100" />;
            case 'link':
              return (
                <MenuItem key={item.label}>
                  <Link to={item.to} className={itemClass}>
                    {item.icon}
                    {item.label}
                  </Link>
                </MenuItem>
              );
            case 'external':
              return (
                <MenuItem key={item.label}>
                  <a href={item.href} target="_blank" rel="noopener noreferrer" className={itemClass}>
                    {item.icon}
                    {item.label}
                  </a>
                </MenuItem>
              );
            case 'action':
              return (
                <MenuItem key={item.label}>
                  <button
                    type="button"
                    onClick={item.onSelect}
                    className={cn(itemClass, item.danger && 'text-red-600 data-focus:text-red-700')}
                  >
                    {item.icon}
                    {item.label}
                  </button>
                </MenuItem>
              );
          }
        })}
      </MenuItems>
    </HMenu>
  );
}
