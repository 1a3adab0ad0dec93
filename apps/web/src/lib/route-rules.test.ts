import { describe, expect, it } from 'vitest';
import { SIDE_BAR_HIDDEN, TOP_NAV_HIDDEN, guard, layoutFor } from './route-rules';

const PRINTING = [
  '/printing',
  '/pringtingtest',
  '/printgrade',
  '/printanswer',
  '/printcode',
  '/printBarcode',
  '/printgradetest',
];
const TOP_HIDDEN = [
  '/invite',
  ...PRINTING,
  '/team/group',
  '/bigData',
  '/largescreen',
  '/answerCard',
  '/404',
  '/',
  '/login',
];
const SIDE_HIDDEN = ['/404', '/', '/login', '/paperset', '/team/details', '/edit', '/largescreen', '/write'];
const OTHER_ROUTES = [
  '/userset',
  '/protocol',
  '/scan',
  '/team/member',
  '/schoolmaterials',
  '/paperbinding',
  '/analysis/grade',
  '/analysis/class',
  '/analysis/person',
  '/correct',
  '/paperlist',
  '/aboutUs',
  '/assistant/analysis',
  '/assistant/commentary',
  '/assistant/details',
  '/assistant/papaerReport',
  '/dataCenter/subject',
  '/dataCenter/correctScore',
  '/dataCenter/averageScore',
  '/rehearse/SelectQuestionPaper',
  '/rehearse/intellectTestPaper',
  '/rehearse/SynchronizationClass',
  '/rehearse/GoodsPaper',
  '/rehearse/MistakesExercise',
  '/cloudResources/personPaper',
  '/cloudResources/schoolPaper',
  '/cloudResources/schoolTestQuestions',
  '/cloudResources/recycleBin',
  '/cloudResources/paperSetting',
];

describe('layout rules (SPEC §2)', () => {
  it('lists exactly the routes SPEC names', () => {
    expect([...TOP_NAV_HIDDEN].sort()).toEqual([...TOP_HIDDEN].sort());
    expect([...SIDE_BAR_HIDDEN].sort()).toEqual([...SIDE_HIDDEN].sort());
  });

  it.each(TOP_HIDDEN)('hides the top nav and scan bar on %s', (path) => {
    expect(layoutFor(path).topNav).toBe(false);
  });

  it.each(SIDE_HIDDEN)('hides the side bar on %s', (path) => {
    expect(layoutFor(path).sideBar).toBe(false);
  });

  it.each(OTHER_ROUTES)('shows the top nav and the side bar on %s', (path) => {
    expect(layoutFor(path)).toMatchObject({ topNav: true, sideBar: true });
  });

  it('shows the top nav but not the side bar on /paperset, /team/details, /edit and /write', () => {
    for (const p of ['/paperset', '/team/details', '/edit', '/write']) {
      expect(layoutFor(p)).toMatchObject({ topNav: true, sideBar: false });
    }
  });

  it('shows the side bar but not the top nav on the printing routes and the other full-page views', () => {
    for (const p of [...PRINTING, '/invite', '/team/group', '/bigData', '/answerCard']) {
      expect(layoutFor(p)).toMatchObject({ topNav: false, sideBar: true });
    }
  });

  it('matches like the router: trailing slash and letter case do not matter', () => {
    expect(layoutFor('/printbarcode/').topNav).toBe(false);
    expect(layoutFor('/PaperSet').sideBar).toBe(false);
  });
});

describe('route guard (SPEC §2)', () => {
  const visitor = { signedIn: false, gradeDirector: false };
  const teacher = { signedIn: true, gradeDirector: false };
  const director = { signedIn: true, gradeDirector: true };

  it('lets a visitor open only / and /404', () => {
    expect(guard('/', visitor)).toBeNull();
    expect(guard('/404', visitor)).toBeNull();
    for (const p of [
      '/paperlist',
      '/rehearse/SelectQuestionPaper',
      '/aboutUs',
      '/protocol',
      '/dataCenter',
      '/nowhere',
    ]) {
      expect(guard(p, visitor)).toEqual({ redirect: '/login', reason: 'signed-out' });
    }
  });

  it('lets a visitor open /invite, and a signed-in user too, to accept an invitation (ADR 0016)', () => {
    expect(guard('/invite', visitor)).toBeNull();
    expect(guard('/invite/', visitor)).toBeNull();
    expect(guard('/invite', teacher)).toBeNull();
  });

  it('leaves /login to the wildcard (it is not a route)', () => {
    expect(guard('/login', visitor)).toBeNull();
  });

  it('sends a signed-in user from / and /404 to /paperList', () => {
    expect(guard('/', teacher)).toEqual({ redirect: '/paperList', reason: 'signed-in' });
    expect(guard('/404', teacher)).toEqual({ redirect: '/paperList', reason: 'signed-in' });
    expect(guard('/paperlist', teacher)).toBeNull();
  });

  it('opens /dataCenter only for grade directors', () => {
    expect(guard('/dataCenter', teacher)).toEqual({ redirect: '/paperList', reason: 'forbidden' });
    expect(guard('/dataCenter/subject', teacher)?.reason).toBe('forbidden');
    expect(guard('/dataCenter', director)).toBeNull();
    expect(guard('/dataCenter/averageScore', director)).toBeNull();
    expect(guard('/dataCenterX', teacher)).toBeNull();
  });
});
