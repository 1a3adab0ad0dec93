import { describe, expect, it } from 'vitest';
import { FileSplitError, fileKind, splitFile } from './split-pages';

describe('splitting chosen files into pages', () => {
  it('tells the kind by type or extension', () => {
    expect(fileKind({ name: 'a.JPG', type: '' })).toBe('jpeg');
    expect(fileKind({ name: 'scan', type: 'image/png' })).toBe('png');
    expect(fileKind({ name: 'class.tif', type: '' })).toBe('tiff');
    expect(fileKind({ name: 'x', type: 'application/pdf' })).toBe('pdf');
    expect(fileKind({ name: 'notes.docx', type: '' })).toBeNull();
  });

  it('keeps a JPEG or PNG as one page', async () => {
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'card-01.jpg', { type: 'image/jpeg' });
    const pages = await splitFile(file);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ name: 'card-01.jpg', page: 1, pages: 1 });
    expect(pages[0]!.blob).toBe(file);
  });

  it('refuses other files with a message naming them', async () => {
    const file = new File(['hello'], '作业.docx');
    await expect(splitFile(file)).rejects.toThrow(FileSplitError);
    await expect(splitFile(file)).rejects.toThrow(
      '不支持的文件：作业.docx。请上传 JPEG、PNG、TIFF 或 PDF 文件',
    );
  });

  it('says a broken TIFF cannot be read', async () => {
    const file = new File([new Uint8Array([1, 2, 3, 4])], 'broken.tif', { type: 'image/tiff' });
    await expect(splitFile(file)).rejects.toThrow('无法读取文件 broken.tif，请确认文件完整后重试');
  });
});
