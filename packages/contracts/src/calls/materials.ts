import { z } from 'zod';
import { IdSchema, PageQuerySchema, TimestampSchema, envelope, page } from '../common.js';
import { defineCall } from './define.js';

/*
 * School materials (/schoolmaterials) and binding (/paperbinding): shared files of a school — PDF, Word (.docx) and
 * images — in folders. Everyone in the school reads them; teachers upload into folders and manage their own files and
 * folders; administrators manage everything. Deleting puts a file in the school's recycle bin, from which it is
 * restored or deleted for good. Binding orders papers and materials into one printable PDF booklet.
 *
 * Every call is scoped to the caller's school: a call on a row (a folder, a material) answers 404 when the row is not
 * in the caller's school, and 403 when the caller is in the school but may not change that row.
 */

/** Chinese messages of material calls. */
export const MATERIAL_MESSAGES = {
  noFile: '请选择要上传的文件',
  tooLarge: (mb: number) => `文件过大（不能超过${mb}MB）`,
  unsupported: '不支持的文件类型，仅支持 PDF、Word（.docx）和图片（JPG、PNG、GIF、WebP）',
  legacyWord: '暂不支持旧版 Word 文档（.doc），请在 Word 中另存为 .docx 后再上传',
  badPdf: 'PDF 文件不完整或已损坏，请重新导出后再上传',
  encryptedPdf: 'PDF 文件设有密码保护，请解除密码后再上传',
  emptyPdf: 'PDF 文件中没有页面',
  badWord: '不是有效的 Word 文档（.docx），文件可能已损坏',
  badImage: '图片文件不完整或已损坏',
  imageTooManyPixels: '图片尺寸过大（不能超过1亿像素）',
  nameRequired: '请输入名称',
  nameTooLong: '名称不能超过100个字',
  nameInvalid: '名称不能包含 \\ / : * ? " < > | 等字符',
  folderNotFound: '文件夹不存在',
  folderExists: (name: string) => `文件夹“${name}”已存在`,
  folderNotEmpty: '文件夹中还有资料或子文件夹，请先移走或删除后再删除文件夹',
  folderTooDeep: '文件夹最多5层',
  folderIntoItself: '不能把文件夹移到它自己或它的子文件夹中',
  materialNotFound: '资料不存在',
  notInRecycleBin: '资料不在回收站中',
  linkExpired: '预览链接已失效，请重新打开预览',
  uploaded: (name: string) => `“${name}”上传成功`,
  deleted: '已移入回收站',
  restored: '已恢复',
  purged: '已彻底删除',
  bindingEmpty: '请至少选择一份试卷或资料',
  bindingTooMany: (max: number) => `一次最多装订${max}份`,
  bindingTitleRequired: '请输入装订册名称',
  bindingWord: (name: string) => `“${name}”是 Word 文档，无法直接装订。请在 Word 中另存为 PDF 并上传后再装订`,
  bindingPaperNotFound: '试卷不存在或无权使用',
  bindingBadPdf: (name: string) => `“${name}”无法读取，不能装订`,
  bindingTooLarge: '装订册过大（不能超过2000页），请分册装订',
  pdfTooManyPages: 'PDF 页数过多（不能超过2000页），请拆分后再上传',
} as const;

/** Largest material, per kind (bytes). */
export const MATERIAL_MAX_BYTES = {
  pdf: 50 * 1024 * 1024,
  word: 20 * 1024 * 1024,
  image: 20 * 1024 * 1024,
} as const;
/** The largest upload accepted at all (the largest of the kinds). */
export const MATERIAL_UPLOAD_MAX_BYTES = MATERIAL_MAX_BYTES.pdf;
/** Most pages of an uploaded PDF (as many as a booklet may have). */
export const MATERIAL_PDF_MAX_PAGES = 2000;
/** Deepest folder nesting. */
export const MATERIAL_FOLDER_MAX_DEPTH = 5;
/** Most items in one booklet. */
export const BINDING_MAX_ITEMS = 30;
/** Days a deleted material stays in the recycle bin. */
export const MATERIAL_RECYCLE_DAYS = 30;

export const MaterialKindSchema = z.enum(['pdf', 'word', 'image']);
export type MaterialKind = z.infer<typeof MaterialKindSchema>;

/** Display names of material kinds. */
export const MATERIAL_KIND_NAMES: Record<MaterialKind, string> = {
  pdf: 'PDF',
  word: 'Word',
  image: '图片',
};

/** Audit-log actions of materials (their Chinese names). */
export const MATERIAL_AUDIT_ACTIONS = {
  'material.upload': '上传资料',
  'material.rename': '重命名资料',
  'material.move': '移动资料',
  'material.delete': '删除资料',
  'material.restore': '恢复资料',
  'material.purge': '彻底删除资料',
  'folder.create': '创建资料文件夹',
  'folder.rename': '重命名资料文件夹',
  'folder.move': '移动资料文件夹',
  'folder.delete': '删除资料文件夹',
} as const;
export type MaterialAuditAction = keyof typeof MATERIAL_AUDIT_ACTIONS;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN_NAME = /[\\/:*?"<>|\u0000-\u001f]/;

/** A folder or file name: trimmed, 1–100 characters, none of the characters file systems refuse. */
export const MaterialNameSchema = z
  .string({ error: MATERIAL_MESSAGES.nameRequired })
  .trim()
  .min(1, MATERIAL_MESSAGES.nameRequired)
  .max(100, MATERIAL_MESSAGES.nameTooLong)
  .refine((v) => !FORBIDDEN_NAME.test(v), MATERIAL_MESSAGES.nameInvalid);

const PersonSchema = z.object({ userId: IdSchema, nickname: z.string() });

export const MaterialFolderSchema = z.object({
  id: IdSchema,
  parentId: IdSchema.nullable(),
  name: z.string(),
  createdBy: PersonSchema.nullable(),
  createdAt: TimestampSchema,
  /** Live materials directly inside. */
  materialCount: z.number().int().nonnegative(),
  /** Whether the caller may rename, move or delete it (its creator or an administrator). */
  canManage: z.boolean(),
});
export type MaterialFolder = z.infer<typeof MaterialFolderSchema>;

export const MaterialSchema = z.object({
  id: IdSchema,
  folderId: IdSchema.nullable(),
  /** The name without its extension. */
  name: z.string(),
  /** The extension of the detected type ('pdf', 'docx', 'jpg', 'png', 'gif', 'webp'). */
  ext: z.string(),
  kind: MaterialKindSchema,
  mime: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** Pages of a PDF; null for other kinds. */
  pageCount: z.number().int().positive().nullable(),
  /** Pixel size of an image; null for other kinds. */
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  uploader: PersonSchema.nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /** Set when in the recycle bin. */
  deletedAt: TimestampSchema.nullable(),
  /** Path of folder names from the root (search results show where a file is). */
  folderPath: z.array(z.string()),
  /** Whether the caller may rename, move or delete it (its uploader or an administrator). */
  canManage: z.boolean(),
});
export type Material = z.infer<typeof MaterialSchema>;

export const MaterialFoldersQuerySchema = z.object({});

export const MaterialListQuerySchema = PageQuerySchema.extend({
  /** The folder listed; absent: the root. Ignored when searching. */
  folderId: IdSchema.optional(),
  /** Searches the names of every material of the school (all folders). */
  keyword: z.string().trim().max(50, '搜索词不能超过50个字').optional(),
  kind: MaterialKindSchema.optional(),
  /** 'all': every folder of the school (the binding's picker); default: the folder. */
  scope: z.enum(['folder', 'all']).optional(),
  /** Only the caller's uploads. */
  mine: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .transform((v) => v === true || v === 'true' || v === '1')
    .optional(),
});
export type MaterialListQuery = z.input<typeof MaterialListQuerySchema>;

export const CreateFolderSchema = z.object({
  name: MaterialNameSchema,
  parentId: IdSchema.nullable().optional(),
});
export type CreateFolder = z.infer<typeof CreateFolderSchema>;

export const UpdateFolderSchema = z.object({
  name: MaterialNameSchema.optional(),
  /** Moves the folder; null: to the root. */
  parentId: IdSchema.nullable().optional(),
});

export const RenameMaterialSchema = z.object({ name: MaterialNameSchema });
export const MoveMaterialSchema = z.object({ folderId: IdSchema.nullable() });

/** The uploaded file: a File in the browser, bytes on the host. */
export const MaterialFileSchema = z.custom<Blob | Uint8Array>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: MATERIAL_MESSAGES.noFile },
);

export const UploadMaterialSchema = z.object({
  file: MaterialFileSchema,
  /** The folder to upload into; absent or empty: the root. */
  folderId: z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v ? v : null)),
  /** The name to keep (without extension); absent: the file's own name. */
  name: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type UploadMaterial = z.input<typeof UploadMaterialSchema>;

export const MaterialIdParams = z.object({ id: IdSchema });

/** A short-lived link for previewing a file in the page (an <img> or the PDF viewer cannot send a bearer). */
export const MaterialLinkSchema = z.object({ url: z.string(), expiresAt: TimestampSchema });

/** A Word document as sanitised HTML. */
export const MaterialHtmlSchema = z.object({
  html: z.string(),
  /** Conversion notes (e.g. unsupported elements), in Chinese. */
  notes: z.array(z.string()),
});

export const BlobFileSchema = z.custom<Blob>(
  (v) => (typeof Blob !== 'undefined' && v instanceof Blob) || v instanceof Uint8Array,
  { message: '应为文件' },
);

export const BindingItemSchema = z.object({
  type: z.enum(['paper', 'material']),
  id: IdSchema,
});
export type BindingItem = z.infer<typeof BindingItemSchema>;

export const BindingRequestSchema = z.object({
  title: z
    .string({ error: MATERIAL_MESSAGES.bindingTitleRequired })
    .trim()
    .min(1, MATERIAL_MESSAGES.bindingTitleRequired)
    .max(60, '装订册名称不能超过60个字'),
  items: z
    .array(BindingItemSchema)
    .min(1, MATERIAL_MESSAGES.bindingEmpty)
    .max(BINDING_MAX_ITEMS, MATERIAL_MESSAGES.bindingTooMany(BINDING_MAX_ITEMS)),
  /** A cover with the title, the school and the table of contents. */
  cover: z.boolean().default(true),
  /** Page numbers at the foot of every page after the cover. */
  pageNumbers: z.boolean().default(true),
  /** Papers with their answers and analysis (teacher copy). */
  withAnswers: z.boolean().default(false),
  /** A4 portrait pages, or A3 landscape sheets each carrying two A4 pages side by side (two columns). */
  pageSize: z.enum(['A4', 'A3']).default('A4'),
});
export type BindingRequest = z.input<typeof BindingRequestSchema>;

export const BindingCheckSchema = z.object({
  items: z.array(
    BindingItemSchema.extend({
      title: z.string(),
      /** null when it can be bound; else why not. */
      problem: z.string().nullable(),
    }),
  ),
});

// ───────────── calls ─────────────

const materialEnvelope = envelope(MaterialSchema);

export const materialFoldersCall = defineCall({
  name: 'materialFolders',
  method: 'GET',
  path: '/school/materials/folders',
  encoding: 'query',
  auth: 'bearer',
  query: MaterialFoldersQuerySchema,
  response: envelope(z.array(MaterialFolderSchema)),
});

export const createMaterialFolderCall = defineCall({
  name: 'createMaterialFolder',
  method: 'POST',
  path: '/school/materials/folders',
  encoding: 'json',
  auth: 'bearer',
  body: CreateFolderSchema,
  response: envelope(MaterialFolderSchema),
});

export const updateMaterialFolderCall = defineCall({
  name: 'updateMaterialFolder',
  method: 'PUT',
  path: '/school/materials/folders/:id',
  encoding: 'json',
  auth: 'bearer',
  params: MaterialIdParams,
  body: UpdateFolderSchema,
  response: envelope(MaterialFolderSchema),
});

export const deleteMaterialFolderCall = defineCall({
  name: 'deleteMaterialFolder',
  method: 'DELETE',
  path: '/school/materials/folders/:id',
  encoding: 'none',
  auth: 'bearer',
  params: MaterialIdParams,
  response: envelope(z.null()),
});

export const materialsCall = defineCall({
  name: 'materials',
  method: 'GET',
  path: '/school/materials',
  encoding: 'query',
  auth: 'bearer',
  query: MaterialListQuerySchema,
  response: envelope(page(MaterialSchema)),
});

export const uploadMaterialCall = defineCall({
  name: 'uploadMaterial',
  method: 'POST',
  path: '/school/materials',
  encoding: 'multipart',
  auth: 'bearer',
  body: UploadMaterialSchema,
  response: materialEnvelope,
});

export const materialDetailCall = defineCall({
  name: 'materialDetail',
  method: 'GET',
  path: '/school/materials/:id',
  encoding: 'none',
  auth: 'bearer',
  params: MaterialIdParams,
  response: materialEnvelope,
});

export const renameMaterialCall = defineCall({
  name: 'renameMaterial',
  method: 'PUT',
  path: '/school/materials/:id/name',
  encoding: 'json',
  auth: 'bearer',
  params: MaterialIdParams,
  body: RenameMaterialSchema,
  response: materialEnvelope,
});

export const moveMaterialCall = defineCall({
  name: 'moveMaterial',
  method: 'PUT',
  path: '/school/materials/:id/folder',
  encoding: 'json',
  auth: 'bearer',
  params: MaterialIdParams,
  body: MoveMaterialSchema,
  response: materialEnvelope,
});

export const deleteMaterialCall = defineCall({
  name: 'deleteMaterial',
  method: 'DELETE',
  path: '/school/materials/:id',
  encoding: 'none',
  auth: 'bearer',
  params: MaterialIdParams,
  response: envelope(z.null()),
});

export const materialRecycleBinCall = defineCall({
  name: 'materialRecycleBin',
  method: 'GET',
  path: '/school/materials-recycle',
  encoding: 'query',
  auth: 'bearer',
  query: PageQuerySchema,
  response: envelope(page(MaterialSchema)),
});

export const restoreMaterialCall = defineCall({
  name: 'restoreMaterial',
  method: 'PUT',
  path: '/school/materials/:id/restore',
  encoding: 'none',
  auth: 'bearer',
  params: MaterialIdParams,
  response: materialEnvelope,
});

export const purgeMaterialCall = defineCall({
  name: 'purgeMaterial',
  method: 'DELETE',
  path: '/school/materials/:id/purge',
  encoding: 'none',
  auth: 'bearer',
  params: MaterialIdParams,
  response: envelope(z.null()),
});

export const materialLinkCall = defineCall({
  name: 'materialLink',
  method: 'POST',
  path: '/school/materials/:id/link',
  encoding: 'json',
  auth: 'bearer',
  params: MaterialIdParams,
  response: envelope(MaterialLinkSchema),
});

/** The file behind a preview link: the bytes themselves, inline (no bearer: the token is the permission). */
export const materialFileCall = defineCall({
  name: 'materialFile',
  method: 'GET',
  path: '/school/material-file/:token',
  encoding: 'none',
  auth: 'none',
  params: z.object({ token: z.string().min(20).max(100) }),
  response: BlobFileSchema,
});

export const materialHtmlCall = defineCall({
  name: 'materialHtml',
  method: 'GET',
  path: '/school/materials/:id/html',
  encoding: 'none',
  auth: 'bearer',
  params: MaterialIdParams,
  response: envelope(MaterialHtmlSchema),
});

/** The file as an attachment (SPEC §7 downloads: POST, blob answer, 420000 ms). */
export const downloadMaterialCall = defineCall({
  name: 'downloadMaterial',
  method: 'POST',
  path: '/school/materials/:id/download',
  encoding: 'json',
  auth: 'bearer',
  params: MaterialIdParams,
  response: BlobFileSchema,
});

/** Which of the chosen items can be bound, and why not (the screen shows it before binding). */
export const checkBindingCall = defineCall({
  name: 'checkBinding',
  method: 'POST',
  path: '/school/binding/check',
  encoding: 'json',
  auth: 'bearer',
  body: z.object({ items: z.array(BindingItemSchema).max(BINDING_MAX_ITEMS) }),
  response: envelope(BindingCheckSchema),
});

/** The booklet PDF (a blob, downloaded). */
export const bindBookletCall = defineCall({
  name: 'bindBooklet',
  method: 'POST',
  path: '/school/binding/pdf',
  encoding: 'json',
  auth: 'bearer',
  body: BindingRequestSchema,
  response: BlobFileSchema,
});
