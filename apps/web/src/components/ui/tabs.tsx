import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { cn } from '../../lib/utils';

export interface TabItem {
  key: string;
  label: string;
  content: ReactNode;
}

/** In-page tabs (arrow keys move between tabs). */
export function Tabs({
  items,
  selectedIndex,
  onChange,
  label,
}: {
  items: TabItem[];
  selectedIndex?: number;
  onChange?: (index: number) => void;
  label: string;
}) {
  return (
    <TabGroup selectedIndex={selectedIndex} onChange={onChange}>
      <div className="overflow-x-auto">
        <TabList aria-label={label} className="flex w-full min-w-max gap-6 border-b border-slate-200">
          {items.map((item) => (
            <Tab
              key={item.key}
              className="-mb-px shrink-0 border-b-2 border-transparent px-1 pb-2.5 text-base whitespace-nowrap text-slate-500 hover:text-slate-800 focus:outline-none data-focus-visible:rounded-sm data-focus-visible:outline-2 data-focus-visible:outline-blue-600 data-selected:border-blue-600 data-selected:font-medium data-selected:text-blue-700"
            >
              {item.label}
            </Tab>
          ))}
        </TabList>
      </div>
      <TabPanels className="pt-5">
        {items.map((item) => (
          <TabPanel key={item.key} className="focus:outline-none">
            {item.content}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}

/** Tabs that are routes: links with aria-current on the active one. */
export function NavTabs({ items, label }: { items: { to: string; label: string }[]; label: string }) {
  return (
    <nav aria-label={label} className="-mx-1 overflow-x-auto border-b border-slate-200">
      <ul className="flex min-w-max gap-1 px-1">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              className={({ isActive }) =>
                cn(
                  '-mb-px inline-block border-b-2 px-3 pt-1 pb-2.5 text-sm transition-colors focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-blue-600',
                  isActive
                    ? 'border-blue-600 font-medium text-blue-700'
                    : 'border-transparent text-slate-500 hover:text-slate-800',
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
