/** A membership's role columns as stored: 0 or 1 on both databases (null where an outer join found no membership). */
export interface RoleColumns {
  is_creator: number | null;
  is_administrator: number | null;
  is_grade_director: number | null;
}

/** A member's roles in a school. */
export interface RoleFlags {
  isCreator: boolean;
  isAdministrator: boolean;
  isGradeDirector: boolean;
}

/** The roles a membership row holds (no membership: none). */
export const roleFlags = (r: RoleColumns): RoleFlags => ({
  isCreator: r.is_creator === 1,
  isAdministrator: r.is_administrator === 1,
  isGradeDirector: r.is_grade_director === 1,
});
