import {
  buildPath,
  calls,
  type BindingItem,
  type BindingRequest,
  type MaterialKind,
  type PaperListQuery,
} from '@zhzy/contracts';
import { api } from '../../../lib/api';
import { useApi } from '../../../lib/swr';

/** Every materials key starts with this, so a change revalidates folders, lists and the recycle bin together. */
export const MATERIALS_KEY = 'school/materials';
export const PAGE_SIZE = 20;

export interface MaterialQuery {
  folderId: string | null;
  keyword: string;
  kind: MaterialKind | '';
  mine: boolean;
  page: number;
}

export function useFolders() {
  return useApi(
    [MATERIALS_KEY, 'folders'],
    async () => (await api.call(calls.materialFolders, { query: {} })).data,
  );
}

export function useMaterials(q: MaterialQuery) {
  return useApi([MATERIALS_KEY, 'list', q.folderId, q.keyword, q.kind, q.mine ? 1 : 0, q.page], async () => {
    const query = {
      page: q.page,
      size: PAGE_SIZE,
      ...(q.keyword ? { keyword: q.keyword } : q.folderId ? { folderId: q.folderId } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.mine ? { mine: true } : {}),
    };
    return (await api.call(calls.materials, { query })).data;
  });
}

export function useRecycleBin(page: number, enabled: boolean) {
  return useApi(
    enabled ? [MATERIALS_KEY, 'recycle', page] : null,
    async () => (await api.call(calls.materialRecycleBin, { query: { page, size: PAGE_SIZE } })).data,
  );
}

export const createFolder = async (name: string, parentId: string | null) =>
  (await api.call(calls.createMaterialFolder, { body: { name, parentId } })).data;
export const renameFolder = async (id: string, name: string) =>
  (await api.call(calls.updateMaterialFolder, { params: { id }, body: { name } })).data;
export const deleteFolder = async (id: string) => {
  await api.call(calls.deleteMaterialFolder, { params: { id } });
};

export const uploadMaterial = async (file: File, folderId: string | null) =>
  api.call(calls.uploadMaterial, { body: { file, ...(folderId ? { folderId } : {}) } });
export const renameMaterial = async (id: string, name: string) =>
  (await api.call(calls.renameMaterial, { params: { id }, body: { name } })).data;
export const moveMaterial = async (id: string, folderId: string | null) =>
  (await api.call(calls.moveMaterial, { params: { id }, body: { folderId } })).data;
export const deleteMaterial = async (id: string) => {
  await api.call(calls.deleteMaterial, { params: { id } });
};
export const restoreMaterial = async (id: string) =>
  (await api.call(calls.restoreMaterial, { params: { id } })).data;
export const purgeMaterial = async (id: string) => {
  await api.call(calls.purgeMaterial, { params: { id } });
};

/** A short-lived URL of the file for <img> and the PDF viewer. */
export const materialLink = async (id: string) =>
  (await api.call(calls.materialLink, { params: { id } })).data;
export const materialHtml = async (id: string) =>
  (await api.call(calls.materialHtml, { params: { id } })).data;

/** Downloads through the app's helper (420000 ms, progress, 下载失败 on failure). */
export const downloadMaterial = (
  id: string,
  filename: string,
  onProgress: (loaded: number, total: number | null) => void,
) => api.download(buildPath(calls.downloadMaterial.path, { id }), {}, filename, { onProgress });

// ── binding

export function usePapers(kind: 'mine' | 'school', keyword: string) {
  return useApi(['binding/papers', kind, keyword], async () => {
    const query: PaperListQuery = { page: 1, size: 50, ...(keyword ? { keyword } : {}) };
    return (await api.call(kind === 'mine' ? calls.myPapers : calls.schoolPapers, { query })).data;
  });
}

export function useBindableMaterials(keyword: string) {
  return useApi([MATERIALS_KEY, 'binding', keyword], async () => {
    // Every folder of the school; by name when searching.
    const query = { page: 1, size: 100, scope: 'all' as const, ...(keyword ? { keyword } : {}) };
    return (await api.call(calls.materials, { query })).data;
  });
}

export const checkBinding = async (items: BindingItem[]) =>
  (await api.call(calls.checkBinding, { body: { items } })).data;

export const bindBooklet = (
  request: BindingRequest,
  onProgress: (loaded: number, total: number | null) => void,
) => api.download(calls.bindBooklet.path, request, `${request.title}.pdf`, { onProgress });
