import { useEffect, useRef, useState } from 'react';
import { ChevronRightIcon } from '../icons';
import { cn } from '../../lib/utils';

export interface CheckTreeNode {
  id: string;
  name: string;
  children: CheckTreeNode[];
}

function descendants(node: CheckTreeNode, out: string[] = []): string[] {
  out.push(node.id);
  for (const c of node.children) descendants(c, out);
  return out;
}

/** Whether a node counts as checked: a leaf by its own id, a parent when every child is. */
function fullyChecked(node: CheckTreeNode, checked: ReadonlySet<string>): boolean {
  if (node.children.length === 0) return checked.has(node.id);
  return node.children.every((c) => fullyChecked(c, checked));
}

function someChecked(node: CheckTreeNode, checked: ReadonlySet<string>): boolean {
  if (checked.has(node.id)) return true;
  return node.children.some((c) => someChecked(c, checked));
}

/**
 * Toggles a node: checking takes its whole subtree, unchecking drops it. Parents are recomputed so that a parent
 * is in the set exactly when all its children are.
 */
export function toggleNode(
  roots: CheckTreeNode[],
  checked: ReadonlySet<string>,
  node: CheckTreeNode,
): Set<string> {
  const next = new Set(checked);
  const on = !fullyChecked(node, checked);
  for (const id of descendants(node)) {
    if (on) next.add(id);
    else next.delete(id);
  }
  const settle = (n: CheckTreeNode): boolean => {
    if (n.children.length === 0) return next.has(n.id);
    const all = n.children.map(settle).every(Boolean);
    if (all) next.add(n.id);
    else next.delete(n.id);
    return all;
  };
  roots.forEach(settle);
  return next;
}

/** The fewest ids that say the same: a fully checked node stands for its subtree. */
export function compactChecked(roots: CheckTreeNode[], checked: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (n: CheckTreeNode) => {
    if (fullyChecked(n, checked)) out.push(n.id);
    else n.children.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}

/** The names of the compact selection, for a summary line. */
export function checkedNames(roots: CheckTreeNode[], checked: ReadonlySet<string>): string[] {
  const ids = new Set(compactChecked(roots, checked));
  const out: string[] = [];
  const walk = (n: CheckTreeNode) => {
    if (ids.has(n.id)) out.push(n.name);
    n.children.forEach(walk);
  };
  roots.forEach(walk);
  return out;
}

function Box({
  state,
  label,
  onToggle,
}: {
  state: 'on' | 'off' | 'mixed';
  label: string;
  onToggle: () => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'mixed';
  }, [state]);
  return (
    <label className="flex min-w-0 flex-1 cursor-pointer items-start gap-2 py-1">
      <input
        ref={ref}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-blue-600"
        checked={state === 'on'}
        onChange={onToggle}
      />
      <span className="min-w-0">{label}</span>
    </label>
  );
}

/** A tree with a checkbox on every node (parents show a mixed state); native checkboxes, so Space toggles. */
export function CheckTree({
  nodes,
  checked,
  onChange,
  label,
  className,
}: {
  nodes: CheckTreeNode[];
  checked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  label: string;
  className?: string;
}) {
  const [open, setOpen] = useState<Set<string>>(() => new Set(nodes.slice(0, 1).map((n) => n.id)));
  const render = (list: CheckTreeNode[], depth: number) => (
    <ul className="space-y-0.5">
      {list.map((n) => {
        const has = n.children.length > 0;
        const expanded = open.has(n.id);
        const state = fullyChecked(n, checked) ? 'on' : someChecked(n, checked) ? 'mixed' : 'off';
        return (
          <li key={n.id}>
            <div
              className="flex items-start gap-1 rounded-md pr-2 hover:bg-slate-50"
              style={{ paddingLeft: depth * 16 }}
            >
              <button
                type="button"
                aria-label={n.name}
                aria-expanded={has ? expanded : undefined}
                tabIndex={has ? 0 : -1}
                onClick={() =>
                  setOpen((prev) => {
                    const next = new Set(prev);
                    if (next.has(n.id)) next.delete(n.id);
                    else next.add(n.id);
                    return next;
                  })
                }
                className={cn(
                  'mt-1 rounded p-0.5 text-slate-500 focus-visible:outline-2 focus-visible:outline-blue-600',
                  !has && 'invisible',
                )}
              >
                <ChevronRightIcon className={cn('size-4 transition-transform', expanded && 'rotate-90')} />
              </button>
              <Box state={state} label={n.name} onToggle={() => onChange(toggleNode(nodes, checked, n))} />
            </div>
            {has && expanded && render(n.children, depth + 1)}
          </li>
        );
      })}
    </ul>
  );
  return (
    <div role="group" aria-label={label} className={cn('text-sm text-slate-700', className)}>
      {render(nodes, 0)}
    </div>
  );
}
