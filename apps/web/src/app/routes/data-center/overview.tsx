import { Link } from 'react-router-dom';
import { ChevronRightIcon } from '../../../components/icons';
import { paths } from '../../../config/paths';
import { SCREENS } from '../../../i18n/zh-CN';

const reports = [
  { to: paths.dataCenter.subject, ...SCREENS.dataSubject },
  { to: paths.dataCenter.correctScore, ...SCREENS.dataCorrectScore },
  { to: paths.dataCenter.averageScore, ...SCREENS.dataAverageScore },
];

/** /dataCenter itself: the three reports to choose from. */
export function Component() {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {reports.map((r) => (
        <li key={r.to}>
          <Link
            to={r.to}
            className="group flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-5 transition-colors hover:border-blue-300 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <span className="flex items-center justify-between text-base font-medium text-slate-900">
              {r.title}
              <ChevronRightIcon className="size-4 text-slate-500 group-hover:text-blue-600" />
            </span>
            <span className="text-sm leading-6 text-slate-500">{r.description}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
