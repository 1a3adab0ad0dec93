import { calls, type CreateInvitation, type Grade, type GroupKind, type InviteStatus } from '@zhzy/contracts';
import { SCHOOL_DATA } from '../../../api/keys';
import { api } from '../../../lib/api';
import { useApi, useApiRevalidate } from '../../../lib/swr';

export const TEAM_KEY = 'team';

export function useInvitations(orgId: string, status: InviteStatus | '') {
  return useApi(
    [TEAM_KEY, 'invites', orgId, status],
    async () => (await api.call(calls.invitations, { query: { orgId, ...(status ? { status } : {}) } })).data,
    { keepPreviousData: true },
  );
}

export function useGroups(orgId: string | null, mine: boolean) {
  return useApi(
    orgId ? [TEAM_KEY, 'groups', orgId, mine ? 1 : 0] : null,
    async () => (await api.call(calls.teamGroups, { query: { orgId: orgId!, mine } })).data,
  );
}

/** The classes of the school's unarchived years, for choosing the classes a member teaches. */
export function useTeachableClasses(orgId: string, enabled: boolean) {
  return useApi(enabled ? [TEAM_KEY, 'classes', orgId] : null, async () => {
    const years = (await api.call(calls.schoolYears, { query: { orgId } })).data.filter((y) => !y.archived);
    const lists = await Promise.all(
      years.map(async (y) => ({
        year: y,
        classes: (await api.call(calls.schoolClasses, { query: { yearId: y.id } })).data,
      })),
    );
    return lists;
  });
}

/** Revalidates every key of the feature and the school data it shares. */
export function useRevalidateTeam() {
  const revalidate = useApiRevalidate();
  return () => {
    void revalidate(TEAM_KEY);
    void revalidate(SCHOOL_DATA);
  };
}

export const setMemberRoles = async (id: string, isAdministrator: boolean, grades: Grade[]) =>
  (await api.call(calls.setMemberRoles, { params: { id }, body: { isAdministrator, grades } })).data;
export const setMemberTeaching = async (id: string, teaching: { subjectId: string; classIds: string[] }[]) =>
  (await api.call(calls.setMemberTeaching, { params: { id }, body: { teaching } })).data;
export const removeMember = async (id: string) => {
  await api.call(calls.removeMember, { params: { id } });
};

export const createInvitation = async (body: CreateInvitation) =>
  (await api.call(calls.createInvitation, { body })).data;
export const revokeInvitation = async (id: string) =>
  (await api.call(calls.revokeInvitation, { params: { id } })).data;

export interface GroupInput {
  name: string;
  kind: GroupKind;
  subjectId: string | null;
  grade: Grade | null;
}
export const createGroup = async (orgId: string, g: GroupInput) =>
  (await api.call(calls.createGroup, { body: { orgId, ...g } })).data;
export const updateGroup = async (id: string, g: GroupInput) =>
  (await api.call(calls.updateGroup, { params: { id }, body: g })).data;
export const deleteGroup = async (id: string) => {
  await api.call(calls.deleteGroup, { params: { id } });
};
export const setGroupMembers = async (id: string, members: { memberId: string; isLeader: boolean }[]) =>
  (await api.call(calls.setGroupMembers, { params: { id }, body: { members } })).data;
