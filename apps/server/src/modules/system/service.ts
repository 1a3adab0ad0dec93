import { sortByClassName, type SchoolClass, type UserInfo } from '@zhzy/contracts';
import type { AuthContext } from '../../lib/call.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { chosenYear, type SystemRepository } from './repository.js';
import { SYSTEM_TEXT } from '../../i18n/messages.js';

/** Public URL of a stored file path. */
export const fileUrl = (path: string | null): string | null => (path ? `/files/${path}` : null);

export class SystemService {
  constructor(private readonly repo: SystemRepository) {}

  async userInfo(auth: AuthContext): Promise<UserInfo> {
    const profile = await this.repo.findProfile(auth.userId);
    if (!profile) throw new AppError('UNAUTHORIZED');
    const orgs = await this.repo.listOrgsOf(auth.userId);
    return {
      user: {
        id: profile.id,
        username: profile.username,
        nickname: profile.nickname,
        avatar: fileUrl(profile.avatar),
        phone: profile.phone,
        orgLogo: fileUrl(profile.logoPath),
        logoPath: profile.logoPath,
        orgName: profile.orgName,
      },
      gradeInfo: {
        orgDefaultId: auth.orgId,
        gradeDirector: auth.isGradeDirector,
        isCreator: auth.isCreator,
        isAdministrator: auth.isAdministrator,
      },
      orgs: orgs.map((o) => ({ id: o.id, name: o.name, logoPath: o.logoPath })),
    };
  }

  /** School years (type 1) or the classes of one school year (type 2) of a school the caller belongs to. */
  async listClasses(
    auth: AuthContext,
    query: { orgId: string; type: '1' | '2'; pid?: string | undefined },
  ): Promise<SchoolClass[]> {
    const membership = await this.repo.findMembership(query.orgId, auth.userId);
    if (!membership) throw forbidden();
    const years = await this.repo.listSchoolYears(query.orgId);
    if (query.type === '1') {
      const chosen = chosenYear(years, membership.defaultYearId);
      return years.map((y) => ({ id: y.id, name: y.name, pid: null, isDefault: y.id === chosen?.id }));
    }
    if (!query.pid)
      throw new AppError('VALIDATION', SYSTEM_TEXT.chooseYear, { data: { issues: [{ field: 'pid' }] } });
    const year = await this.repo.findSchoolYear(query.orgId, query.pid);
    if (!year) throw notFound(SYSTEM_TEXT.yearNotFound);
    // Natural order (ADR 0045): 七年级(2)班 before 七年级(10)班, as everywhere else.
    const classes = sortByClassName(await this.repo.listClasses(query.orgId, year.id), (c) => c.name);
    return classes.map((c) => ({ id: c.id, name: c.name, pid: c.yearId, isDefault: false }));
  }

  /** Saves the caller's default school year in one of their schools. */
  async updateClassDefault(auth: AuthContext, orgId: string, yearId: string): Promise<void> {
    const membership = await this.repo.findMembership(orgId, auth.userId);
    if (!membership) throw forbidden();
    const year = await this.repo.findSchoolYear(orgId, yearId);
    if (!year || year.archived) throw notFound(SYSTEM_TEXT.yearNotFoundOrArchived);
    await this.repo.setDefaultYear(orgId, auth.userId, yearId);
  }
}
