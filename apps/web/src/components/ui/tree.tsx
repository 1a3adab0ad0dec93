import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronRightIcon } from '../icons';
import { cn } from '../../lib/utils';

export interface TreeData {
  id: string;
  name: string;
  children: TreeData[];
}

interface Visible {
  node: TreeData;
  depth: number;
  parentId: string | null;
}

function flatten(
  nodes: TreeData[],
  expanded: Set<string>,
  depth = 0,
  parentId: string | null = null,
): Visible[] {
  const out: Visible[] = [];
  for (const node of nodes) {
    out.push({ node, depth, parentId });
    if (node.children.length > 0 && expanded.has(node.id)) {
      out.push(...flatten(node.children, expanded, depth + 1, node.id));
    }
  }
  return out;
}

/**
 * A tree view (WAI-ARIA tree pattern): Up/Down move, Right opens or enters, Left closes or goes to the
 * parent, Home/End jump, Enter/Space select.
 */
export function Tree({
  nodes,
  selectedId,
  onSelect,
  label,
  defaultExpanded,
}: {
  nodes: TreeData[];
  selectedId: string | null;
  onSelect: (node: TreeData) => void;
  label: string;
  defaultExpanded?: string[];
}) {
  const [expanded, setExpanded] = useState(
    () => new Set(defaultExpanded ?? nodes.slice(0, 1).map((n) => n.id)),
  );
  const [activeId, setActiveId] = useState<string | null>(null);
  const refs = useRef(new Map<string, HTMLElement>());
  const visible = useMemo(() => flatten(nodes, expanded), [nodes, expanded]);
  const focusId =
    activeId && visible.some((v) => v.node.id === activeId) ? activeId : (selectedId ?? visible[0]?.node.id);

  const toggle = (id: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      const want = open ?? !next.has(id);
      if (want) next.add(id);
      else next.delete(id);
      return next;
    });

  const move = (id: string | undefined) => {
    if (!id) return;
    setActiveId(id);
    refs.current.get(id)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent, v: Visible, index: number) => {
    const hasChildren = v.node.children.length > 0;
    const open = expanded.has(v.node.id);
    switch (e.key) {
      case 'ArrowDown':
        move(visible[index + 1]?.node.id);
        break;
      case 'ArrowUp':
        move(visible[index - 1]?.node.id);
        break;
      case 'ArrowRight':
        if (hasChildren && !open) toggle(v.node.id, true);
        else if (hasChildren) move(v.node.children[0]?.id);
        break;
      case 'ArrowLeft':
        if (hasChildren && open) toggle(v.node.id, false);
        else move(v.parentId ?? undefined);
        break;
      case 'Home':
        move(visible[0]?.node.id);
        break;
      case 'End':
        move(visible[visible.length - 1]?.node.id);
        break;
      case 'Enter':
      case ' ':
        onSelect(v.node);
        if (hasChildren && !open) toggle(v.node.id, true);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <ul role="tree" aria-label={label} className="space-y-0.5 text-sm">
      {visible.map((v, index) => {
        const hasChildren = v.node.children.length > 0;
        const open = expanded.has(v.node.id);
        const selected = v.node.id === selectedId;
        return (
          <li
            key={v.node.id}
            role="treeitem"
            aria-level={v.depth + 1}
            aria-expanded={hasChildren ? open : undefined}
            aria-selected={selected}
            tabIndex={v.node.id === focusId ? 0 : -1}
            ref={(el) => {
              if (el) refs.current.set(v.node.id, el);
              else refs.current.delete(v.node.id);
            }}
            onKeyDown={(e) => onKeyDown(e, v, index)}
            onFocus={() => setActiveId(v.node.id)}
            onClick={() => {
              onSelect(v.node);
              if (hasChildren) toggle(v.node.id);
            }}
            style={{ paddingLeft: `${v.depth * 16 + 4}px` }}
            className={cn(
              'flex cursor-pointer items-start gap-1 rounded-md py-1.5 pr-2 leading-5 focus-visible:outline-2 focus-visible:outline-blue-600',
              selected ? 'bg-blue-50 font-medium text-blue-700' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            <ChevronRightIcon
              className={cn(
                'mt-0.5 size-4 shrink-0 text-slate-500 transition-transform',
                open && 'rotate-90',
                !hasChildren && 'invisible',
              )}
            />
            <span>{v.node.name}</span>
          </li>
        );
      })}
    </ul>
  );
}
