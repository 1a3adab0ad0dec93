import { Navigate, type RouteObject } from 'react-router-dom';
import { RootLayout } from './layouts/root-layout';
import { InitialLoading, RouteError } from './layouts/route-error';

/**
 * Every route of SPEC §2. Each screen is its own lazily loaded chunk; children and redirects exactly as listed;
 * /login is not registered, so it falls to the wildcard and on to /.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown only while the first screen's chunk loads.
    HydrateFallback: InitialLoading,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { path: '/', lazy: () => import('./routes/home') },
          { path: '/userset', lazy: () => import('./routes/userset') },
          { path: '/protocol', lazy: () => import('./routes/protocol') },
          { path: '/edit', lazy: () => import('./routes/edit') },
          { path: '/paperset', lazy: () => import('./routes/paperset') },
          { path: '/scan', lazy: () => import('./routes/scan') },
          { path: '/team/details', lazy: () => import('./routes/team/details') },
          { path: '/team/member', lazy: () => import('./routes/team/member') },
          { path: '/team/group', lazy: () => import('./routes/team/group') },
          { path: '/invite', lazy: () => import('./routes/invite') },
          { path: '/schoolmaterials', lazy: () => import('./routes/schoolmaterials') },
          { path: '/paperbinding', lazy: () => import('./routes/paperbinding') },
          {
            path: '/analysis',
            lazy: () => import('./routes/analysis/layout'),
            children: [
              { index: true, element: <Navigate to="/analysis/grade" replace /> },
              { path: 'grade', lazy: () => import('./routes/analysis/grade') },
              { path: 'class', lazy: () => import('./routes/analysis/class') },
              { path: 'person', lazy: () => import('./routes/analysis/person') },
            ],
          },
          { path: '/correct', lazy: () => import('./routes/correct') },
          { path: '/write', lazy: () => import('./routes/write') },
          { path: '/paperlist', lazy: () => import('./routes/paperlist') },
          { path: '/pringtingtest', lazy: () => import('./routes/print/test') },
          { path: '/printing', lazy: () => import('./routes/print/printing') },
          { path: '/printgrade', lazy: () => import('./routes/print/grade') },
          { path: '/printanswer', lazy: () => import('./routes/print/answer') },
          { path: '/printcode', lazy: () => import('./routes/print/code') },
          { path: '/printBarcode', lazy: () => import('./routes/print/barcode') },
          { path: '/printgradetest', lazy: () => import('./routes/print/grade-test') },
          { path: '/aboutUs', lazy: () => import('./routes/about-us') },
          { path: '/help', lazy: () => import('./routes/help') },
          { path: '/bigData', lazy: () => import('./routes/big-data') },
          { path: '/largescreen', lazy: () => import('./routes/largescreen') },
          { path: '/answerCard', lazy: () => import('./routes/answer-card') },
          { path: '/404', lazy: () => import('./routes/not-found') },
          {
            path: '/assistant',
            lazy: () => import('./routes/assistant/layout'),
            children: [
              { index: true, element: <Navigate to="/assistant/analysis" replace /> },
              { path: '/assistant/analysis', lazy: () => import('./routes/assistant/analysis') },
              { path: '/assistant/commentary', lazy: () => import('./routes/assistant/commentary') },
              { path: '/assistant/details', lazy: () => import('./routes/assistant/details') },
              { path: 'papaerReport', lazy: () => import('./routes/assistant/report') },
            ],
          },
          {
            path: '/dataCenter',
            lazy: () => import('./routes/data-center/layout'),
            children: [
              { index: true, lazy: () => import('./routes/data-center/overview') },
              { path: '/dataCenter/subject', lazy: () => import('./routes/data-center/subject') },
              { path: '/dataCenter/correctScore', lazy: () => import('./routes/data-center/correct-score') },
              { path: '/dataCenter/averageScore', lazy: () => import('./routes/data-center/average-score') },
            ],
          },
          {
            path: '/rehearse',
            lazy: () => import('./routes/rehearse/layout'),
            children: [
              { index: true, element: <Navigate to="/rehearse/SelectQuestionPaper" replace /> },
              { path: 'SelectQuestionPaper', lazy: () => import('./routes/rehearse/select-question-paper') },
              { path: 'intellectTestPaper', lazy: () => import('./routes/rehearse/intellect') },
              { path: 'SynchronizationClass', lazy: () => import('./routes/rehearse/synchronization') },
              { path: 'GoodsPaper', lazy: () => import('./routes/rehearse/goods') },
              { path: 'MistakesExercise', lazy: () => import('./routes/rehearse/mistakes') },
            ],
          },
          {
            path: '/cloudResources',
            lazy: () => import('./routes/cloud-resources/layout'),
            children: [
              { index: true, element: <Navigate to="/cloudResources/personPaper" replace /> },
              { path: 'personPaper', lazy: () => import('./routes/cloud-resources/person-paper') },
              { path: 'schoolPaper', lazy: () => import('./routes/cloud-resources/school-paper') },
              {
                path: 'schoolTestQuestions',
                lazy: () => import('./routes/cloud-resources/school-questions'),
              },
              { path: 'recycleBin', lazy: () => import('./routes/cloud-resources/recycle-bin') },
            ],
          },
          {
            path: '/cloudResources/paperSetting',
            lazy: () => import('./routes/cloud-resources/paper-setting'),
          },
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];
