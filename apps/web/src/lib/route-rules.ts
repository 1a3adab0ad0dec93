import { PRINTING_PATHS, paths } from '../config/paths';

/** Normalises a pathname for the rules: no trailing slash, case-insensitive (the router matches so). */
export function normalisePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (trimmed || '/').toLowerCase();
}

const set = (list: readonly string[]) => new Set(list.map(normalisePath));

/** SPEC §2: the top nav and the scan bar are hidden on exactly these routes. */
export const TOP_NAV_HIDDEN: readonly string[] = [
  paths.invite,
  ...PRINTING_PATHS,
  paths.teamGroup,
  paths.bigData,
  paths.largescreen,
  paths.answerCard,
  paths.notFound,
  paths.home,
  paths.login,
];

/** SPEC §2: the right-hand side bar is hidden on exactly these routes. */
export const SIDE_BAR_HIDDEN: readonly string[] = [
  paths.notFound,
  paths.home,
  paths.login,
  paths.paperset,
  paths.teamDetails,
  paths.edit,
  paths.largescreen,
  paths.write,
];

const topNavHidden = set(TOP_NAV_HIDDEN);
const sideBarHidden = set(SIDE_BAR_HIDDEN);
/** Pages that are printed or shown full screen carry no footer either. */
const bare = set([
  ...PRINTING_PATHS,
  paths.largescreen,
  paths.bigData,
  paths.answerCard,
  paths.invite,
  paths.teamGroup,
]);

export interface LayoutParts {
  topNav: boolean;
  sideBar: boolean;
  footer: boolean;
}

export function layoutFor(pathname: string): LayoutParts {
  const p = normalisePath(pathname);
  return { topNav: !topNavHidden.has(p), sideBar: !sideBarHidden.has(p), footer: !bare.has(p) };
}

export interface GuardInput {
  signedIn: boolean;
  gradeDirector: boolean;
}

export type GuardDecision = { redirect: string; reason: 'signed-in' | 'signed-out' | 'forbidden' } | null;

const PUBLIC = set([paths.home, paths.notFound]);
/** Open to visitors as well (ADR 0016): an invitation is accepted with a new account, before any sign-in. */
const VISITOR_ALSO = set([paths.invite]);

/**
 * The route guard of SPEC §2: a signed-in user opening / or /404 goes to /paperList; a visitor may open only
 * / and /404, and /invite to accept an invitation with a new account (anything else goes to /login, which falls
 * to the wildcard and so to /); /dataCenter is for grade directors only.
 */
export function guard(pathname: string, input: GuardInput): GuardDecision {
  const p = normalisePath(pathname);
  if (input.signedIn) {
    if (PUBLIC.has(p)) return { redirect: paths.signedInHome, reason: 'signed-in' };
    const dc = normalisePath(paths.dataCenter.root);
    if ((p === dc || p.startsWith(`${dc}/`)) && !input.gradeDirector) {
      return { redirect: paths.signedInHome, reason: 'forbidden' };
    }
    return null;
  }
  if (PUBLIC.has(p) || VISITOR_ALSO.has(p)) return null;
  // /login itself is not a route: the wildcard sends it on to /.
  if (p === normalisePath(paths.login)) return null;
  return { redirect: paths.login, reason: 'signed-out' };
}
