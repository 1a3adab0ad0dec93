import {
  MATERIAL_MESSAGES,
  type BindingItem,
  type BindingRequestSchema,
  type PaperDocument,
} from '@zhzy/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../lib/call.js';
import { AppError, notFound } from '../../lib/errors.js';
import { limitRefusal, type DocumentSandbox } from '../../lib/sandbox/pool.js';
import { cardFonts } from '../homework/card-pdf.js';
import type { SchoolActor } from '../school/policy.js';
import type { BookletPart } from './booklet.js';
import { FORBIDDEN_CHARS, fullName } from './present.js';
import type { MaterialRecord, MaterialsRepository } from './repository.js';

// Binding papers and materials into one booklet PDF (in the document sandbox).

/** A booklet of up to 2,000 pages is bound within this, or its child is stopped. */
const BOOKLET_TIMEOUT_MS = 120_000;

/** The papers the binding reads (the papers module's detail, with its own access rules). */
export interface PaperSource {
  detail(auth: AuthContext, id: string): Promise<PaperDocument>;
}

export interface BindingDeps {
  repo: MaterialsRepository;
  papers: PaperSource;
  documents: DocumentSandbox;
  clock: () => number;
  /** A material's file (404 when it is missing from storage). */
  bytes: (material: MaterialRecord) => Promise<Buffer>;
}

/** Each item's title and, when it cannot be bound, why (a paper the caller cannot open, a Word document …). */
export async function checkBinding(
  deps: BindingDeps,
  auth: AuthContext,
  actor: SchoolActor,
  items: BindingItem[],
) {
  const out = [];
  for (const item of items) {
    const resolved = await resolvePart(deps, auth, actor, item).then(
      (part) => ({ title: part.title, problem: null as string | null }),
      (error: unknown) => {
        if (error instanceof AppError && error.status < 500) return { title: '', problem: error.message };
        throw error;
      },
    );
    out.push({ ...item, ...resolved });
  }
  return { items: out };
}

async function resolvePart(
  deps: BindingDeps,
  auth: AuthContext,
  actor: SchoolActor,
  item: BindingItem,
): Promise<BookletPart> {
  if (item.type === 'paper') {
    let paper: PaperDocument;
    try {
      paper = await deps.papers.detail(auth, item.id);
    } catch (error) {
      if (error instanceof AppError && (error.status === 404 || error.status === 403)) {
        throw new AppError('NOT_FOUND', MATERIAL_MESSAGES.bindingPaperNotFound);
      }
      throw error;
    }
    return { kind: 'paper', title: paper.title, paper };
  }
  const row = await deps.repo.findMaterial(item.id);
  if (!row || row.orgId !== actor.orgId || row.deletedAt) throw notFound(MATERIAL_MESSAGES.materialNotFound);
  if (row.kind === 'word') throw new AppError('VALIDATION', MATERIAL_MESSAGES.bindingWord(fullName(row)));
  const data = await deps.bytes(row);
  return row.kind === 'pdf'
    ? { kind: 'pdf', title: row.name, data }
    : { kind: 'image', title: row.name, data, ext: row.ext };
}

export async function bind(
  deps: BindingDeps,
  auth: AuthContext,
  actor: SchoolActor,
  body: z.output<typeof BindingRequestSchema>,
): Promise<{ data: Uint8Array; filename: string }> {
  const parts: BookletPart[] = [];
  for (const item of body.items) parts.push(await resolvePart(deps, auth, actor, item));
  const options = {
    title: body.title,
    schoolName: await deps.repo.schoolName(actor.orgId),
    cover: body.cover,
    pageNumbers: body.pageNumbers,
    withAnswers: body.withAnswers,
    pageSize: body.pageSize,
    fonts: cardFonts(),
    date: new Date(deps.clock()),
  };
  // Up to 2,000 pages copied by pdf-lib: seconds of work, done in the document sandbox.
  const data = await deps.documents
    .run('bindBooklet', [parts, options], { timeoutMs: BOOKLET_TIMEOUT_MS })
    .catch((error: unknown) => {
      throw limitRefusal(error);
    });
  return { data, filename: `${body.title.replace(FORBIDDEN_CHARS, '_')}.pdf` };
}
