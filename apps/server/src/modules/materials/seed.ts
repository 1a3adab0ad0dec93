import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import type { Kysely, Transaction } from 'kysely';
import PDFKit from 'pdfkit';
import sharp from 'sharp';
import { resolveCardFonts } from '@zhzy/answer-card/render';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { DEMO_ACCOUNTS, DEMO_SCHOOL_NAME } from '../../seed/demo.js';
import { MaterialStorage } from './storage.js';
import type { ObjectStorage } from '../../lib/storage/index.js';

// 演示学校's materials at first start, so /schoolmaterials and /paperbinding mean something before anyone uploads:
// four folders (one nested) with PDFs, a Word document and an image. Every text below was written for this project;
// the files are generated here (pdfkit, docx, sharp), never copied. Stored under fixed names in
// DATA_DIR/materials/demo, so a restart on a fresh database rewrites the same files instead of adding new ones.

const SEEDED_KEY = 'materials_demo_seeded';

interface DemoFile {
  /** A fixed UUIDv4-shaped name. */
  file: string;
  name: string;
  ext: 'pdf' | 'docx' | 'png';
  folder: string | null;
  by: keyof typeof DEMO_ACCOUNTS;
  make: () => Promise<Buffer>;
}

function pdfOf(title: string, lines: string[]): Promise<Buffer> {
  const fonts = resolveCardFonts();
  const doc = new PDFKit({ size: 'A4', margin: 56, info: { Title: title, Creator: '智能作业' } });
  doc.registerFont('cjk', fs.readFileSync(fonts.regular.path), fonts.regular.family ?? '');
  const bold = fonts.bold ?? fonts.regular;
  doc.registerFont('cjk-bold', fs.readFileSync(bold.path), bold.family ?? '');
  doc.font('cjk-bold').fontSize(18).text(title, { align: 'center' });
  doc.moveDown(1);
  for (const line of lines) {
    if (line.startsWith('# ')) {
      doc.moveDown(0.4).font('cjk-bold').fontSize(13).text(line.slice(2));
      doc.moveDown(0.2);
    } else {
      doc.font('cjk').fontSize(11).text(line, { lineGap: 4 });
    }
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

async function wordOf(title: string, lines: string[]): Promise<Buffer> {
  const doc = new Document({
    creator: '智能作业',
    title,
    sections: [
      {
        children: [
          new Paragraph({ text: title, heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER }),
          ...lines.map((line) =>
            line.startsWith('# ')
              ? new Paragraph({ text: line.slice(2), heading: HeadingLevel.HEADING_2 })
              : new Paragraph({ children: [new TextRun({ text: line, font: { eastAsia: '宋体' } })] }),
          ),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** A plan of a school's grounds: blocks and labels drawn as SVG, rasterised to PNG. */
async function campusPlan(): Promise<Buffer> {
  const block = (x: number, y: number, w: number, h: number, fill: string, label: string) =>
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" fill="${fill}" stroke="#334155" stroke-width="2"/>` +
    `<text x="${x + w / 2}" y="${y + h / 2 + 8}" font-size="24" text-anchor="middle" font-family="Noto Sans CJK SC, sans-serif" fill="#0f172a">${label}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <rect width="1200" height="800" fill="#f8fafc"/>
    <text x="600" y="60" font-size="36" text-anchor="middle" font-family="Noto Sans CJK SC, sans-serif" fill="#0f172a">校园平面示意图（考场安排用）</text>
    ${block(80, 120, 320, 200, '#bfdbfe', '教学楼 A（七年级）')}
    ${block(440, 120, 320, 200, '#bbf7d0', '教学楼 B（八年级）')}
    ${block(800, 120, 320, 200, '#fde68a', '实验楼')}
    ${block(80, 380, 480, 300, '#e9d5ff', '操场')}
    ${block(620, 380, 240, 140, '#fecaca', '图书馆')}
    ${block(900, 380, 220, 140, '#fed7aa', '食堂')}
    ${block(620, 560, 500, 120, '#e2e8f0', '行政楼（教务处 · 文印室）')}
    <text x="600" y="760" font-size="20" text-anchor="middle" font-family="Noto Sans CJK SC, sans-serif" fill="#475569">北 ↑  示意图，不按比例</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

const FOLDERS = [
  { key: 'jiaoyan', name: '教研活动', parent: null },
  { key: 'math7', name: '七年级数学', parent: null },
  { key: 'review', name: '单元复习', parent: 'math7' },
  { key: 'notice', name: '通知与制度', parent: null },
] as const;

const FILES: DemoFile[] = [
  {
    file: '6f1c2a5e-0b7d-4c1e-9a2f-3d4e5f6a7b01.pdf',
    name: '七年级数学第一单元复习提纲',
    ext: 'pdf',
    folder: 'review',
    by: 'teacher',
    make: () =>
      pdfOf('七年级数学第一单元复习提纲', [
        '# 一、有理数的概念',
        '1. 正数、负数与零：能举出生活中用正负数表示相反意义的量的例子，如收入与支出、零上与零下温度。',
        '2. 数轴：会画数轴，能在数轴上表示有理数，并能借助数轴比较两个数的大小。',
        '3. 相反数与绝对值：理解“一个数的绝对值表示数轴上这个数对应的点到原点的距离”。',
        '# 二、有理数的运算',
        '1. 加减法：同号相加取相同符号，异号相加取绝对值较大的数的符号；减去一个数等于加上它的相反数。',
        '2. 乘除法：两数相乘，同号得正，异号得负；除以一个不为零的数等于乘这个数的倒数。',
        '3. 乘方与混合运算：先乘方，再乘除，最后加减；有括号先算括号里面的。',
        '# 三、易错提醒',
        '· 计算 -3² 与 (-3)² 时注意底数不同，结果分别为 -9 和 9。',
        '· 绝对值相等的两个数可能互为相反数，也可能相等。',
        '# 四、课后自测建议',
        '每天完成 10 道混合运算，计时 15 分钟，订正后在错题本上写明错误原因。',
      ]),
  },
  {
    file: '6f1c2a5e-0b7d-4c1e-9a2f-3d4e5f6a7b02.pdf',
    name: '本学期教研活动安排',
    ext: 'pdf',
    folder: 'jiaoyan',
    by: 'admin',
    make: () =>
      pdfOf('本学期教研活动安排', [
        '# 活动时间',
        '每周三下午第七、八节，地点为行政楼三楼会议室；如遇考试顺延一周。',
        '# 安排',
        '第 2 周：学期教学计划交流，各备课组长介绍本组进度安排。',
        '第 4 周：公开课《有理数的加法》，课后集体评课。',
        '第 6 周：期中命题研讨，确定双向细目表与难度分布。',
        '第 9 周：期中质量分析，按班级对比得分率与典型错误。',
        '第 12 周：作业设计分享，交流分层作业与错题重练的做法。',
        '第 16 周：期末复习策略研讨。',
        '# 要求',
        '请各位老师提前阅读研讨材料，活动后一周内将听课记录上传到“教研活动”文件夹。',
      ]),
  },
  {
    file: '6f1c2a5e-0b7d-4c1e-9a2f-3d4e5f6a7b03.docx',
    name: '作业批改与反馈规范',
    ext: 'docx',
    folder: 'notice',
    by: 'admin',
    make: () =>
      wordOf('作业批改与反馈规范', [
        '# 一、批改时限',
        '当天布置的书面作业原则上在次日上课前批改完毕；周末作业在周一内完成批改。',
        '# 二、批改方式',
        '客观题使用答题卡扫描批改；主观题在网上阅卷中逐题批改，可使用批注说明扣分原因。',
        '# 三、反馈',
        '每次作业后在课上讲评共性错误，个别问题面批；错题纳入学生的错题本，两周后重练。',
        '# 四、检查',
        '教务处每月抽查一次作业批改记录，结果在教研活动中反馈。',
      ]),
  },
  {
    file: '6f1c2a5e-0b7d-4c1e-9a2f-3d4e5f6a7b04.png',
    name: '校园平面示意图',
    ext: 'png',
    folder: null,
    by: 'admin',
    make: campusPlan,
  },
];

const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
} as const;
const KIND = { pdf: 'pdf', docx: 'word', png: 'image' } as const;

/**
 * Seeds 演示学校's folders and materials once per database (keyed by meta); false when done before, when there is
 * no demo school, or when no CJK font is installed (the PDFs could not be typeset).
 */
export async function seedMaterialsDemo(
  db: Kysely<Database>,
  store: string | ObjectStorage,
  clock: () => number = Date.now,
): Promise<boolean> {
  const done = await db.selectFrom('meta').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
  if (done) return false;
  const org = await db
    .selectFrom('orgs')
    .select('id')
    .where('name', '=', DEMO_SCHOOL_NAME)
    .executeTakeFirst();
  if (!org) return false;
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username', 'in', Object.values(DEMO_ACCOUNTS))
    .execute();
  const userId = (key: keyof typeof DEMO_ACCOUNTS) =>
    users.find((u) => u.username === DEMO_ACCOUNTS[key])?.id ?? null;
  const files = await storedFiles(new MaterialStorage(store));
  if (!files) return false;
  const now = new Date(clock()).toISOString();
  await db.transaction().execute(async (trx) => {
    const folderIds = await insertFolders(trx, org.id, userId('admin'), now);
    for (const file of files) await insertMaterial(trx, { orgId: org.id, folderIds, userId, now }, file);
    await trx.insertInto('meta').values({ key: SEEDED_KEY, value: now }).execute();
  });
  return true;
}

/** A demo file as stored, with what its row records (image size, PDF page count). */
interface StoredFile {
  spec: DemoFile;
  data: Buffer;
  width: number | null;
  height: number | null;
  pages: number | null;
}

/** Each demo file, made and stored when not there yet; null when one cannot be made (no CJK font for the PDFs). */
async function storedFiles(storage: MaterialStorage): Promise<StoredFile[] | null> {
  const files: StoredFile[] = [];
  try {
    for (const spec of FILES) {
      const relative = path.posix.join('materials', 'demo', spec.file);
      let data = await storage.read(relative);
      if (!data) {
        data = await spec.make();
        await storage.write(relative, data);
      }
      const meta = spec.ext === 'png' ? await sharp(data).metadata() : null;
      const pages =
        spec.ext === 'pdf' ? (data.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 1) : null;
      files.push({ spec, data, width: meta?.width ?? null, height: meta?.height ?? null, pages });
    }
  } catch {
    return null;
  }
  return files;
}

/** The demo folders, parents first; their ids by key. */
async function insertFolders(
  trx: Transaction<Database>,
  orgId: string,
  createdBy: string | null,
  now: string,
): Promise<Map<string, string>> {
  const folderIds = new Map<string, string>();
  for (const f of FOLDERS) {
    const id = newId();
    folderIds.set(f.key, id);
    await trx
      .insertInto('material_folders')
      .values({
        id,
        org_id: orgId,
        parent_id: f.parent ? folderIds.get(f.parent)! : null,
        name: f.name,
        created_by: createdBy,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return folderIds;
}

/** One material row for a stored demo file, in its folder, uploaded by its demo account. */
async function insertMaterial(
  trx: Transaction<Database>,
  at: {
    orgId: string;
    folderIds: Map<string, string>;
    userId: (key: keyof typeof DEMO_ACCOUNTS) => string | null;
    now: string;
  },
  { spec, data, width, height, pages }: StoredFile,
): Promise<void> {
  await trx
    .insertInto('materials')
    .values({
      id: newId(),
      org_id: at.orgId,
      folder_id: spec.folder ? at.folderIds.get(spec.folder)! : null,
      name: spec.name,
      ext: spec.ext,
      kind: KIND[spec.ext],
      mime: MIME[spec.ext],
      size_bytes: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      path: path.posix.join('materials', 'demo', spec.file),
      page_count: pages,
      width,
      height,
      uploaded_by: at.userId(spec.by),
      created_at: at.now,
      updated_at: at.now,
      deleted_at: null,
      deleted_by: null,
    })
    .execute();
}
