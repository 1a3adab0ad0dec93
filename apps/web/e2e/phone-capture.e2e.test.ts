// @vitest-environment node
/**
 * Issue 26 part 2 in Debian's Chromium with a fake camera: a demo homework's card is printed for one student,
 * filled, and photographed by the phone-photo model (perspective, uneven light, an 8 MP JPEG); that photo is the
 * camera's stream (`--use-file-for-fake-video-capture`, a Y4M file). On a phone-sized /scan bound to the homework,
 * the teacher opens 手机拍照: the live check finds the four anchors, the sheet is taken by itself once they hold still,
 * the host accepts it as a page and recognition puts it on that student's sheet with the answers the student gave.
 * A dark photo from the phone's own camera app is refused at once with the reason to retake it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PHOTO_REFUSAL_MESSAGES } from '@zhzy/contracts';
import { bearer, signIn as apiSignIn, startTestApp, type TestApp } from '@zhzy/server/testing';
import { ensureBuilt, launchBrowser, SCREENSHOT_DIR, WEB_DIST } from './browser';
import { cameraFlags, cameraScene, type CameraScene } from './fake-camera';
import { hostApi, signIn, type HostApi } from './teacher';

const TITLE = '一元一次方程 随堂练习';

let host: TestApp;
let browser: Browser;
let api: HostApi;
let dir: string;
let scene: CameraScene;

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhzy-phone-e2e-'));
  host = await startTestApp({
    dialect: 'sqlite',
    listen: true,
    env: { WEB_DIST, DATA_DIR: path.join(dir, 'data'), SEED_DEMO_RESULTS: 'true', RECOGNITION_WORKERS: '1' },
  });
  api = hostApi(host, bearer((await apiSignIn(host.app, 'demo-teacher')).access_token));
  scene = await cameraScene(host, api, TITLE, dir);
  browser = await launchBrowser(cameraFlags(scene.stream));
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('手机拍照 on /scan (issue #26)', { timeout: 900_000 }, () => {
  it('takes a sheet by itself when its anchors hold still, and recognition reads it onto the student', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'zh-CN',
      deviceScaleFactor: 1,
      permissions: ['camera'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await signIn(page, host.baseUrl);
    await page.goto(`${host.baseUrl}/scan?homeworkId=${scene.homework.id}`);
    await page.getByRole('heading', { name: `扫描 · ${TITLE}` }).waitFor();
    await page.getByTestId('photo-capture-open').click();
    const dialog = page.getByRole('dialog', { name: '手机拍照' });
    await dialog.getByLabel('摄像头画面').waitFor();

    // The live check finds the card and takes it once it holds still: one photo, accepted as a page.
    const shots = dialog.getByTestId('photo-shot');
    await expect.poll(() => shots.count(), { timeout: 120_000 }).toBe(1);
    await expect.poll(() => shots.first().getAttribute('data-status'), { timeout: 180_000 }).toBe('accepted');
    await dialog.getByTestId('photo-hint').filter({ hasText: '已拍好，请换下一张答题卡' }).waitFor();
    await dialog.getByTestId('photo-quad').waitFor();
    // The same sheet still in view is not taken again.
    await page.waitForTimeout(1_500);
    expect(await shots.count()).toBe(1);
    expect(await dialog.getByTestId('photo-summary').textContent()).toBe('已上传 1 张');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'phone-capture-taken-390.png') });

    // The page is recognised onto the student's sheet of this homework, with the marks the student made.
    const sheetOfStudent = async () =>
      (
        await api<{ id: string; studentId: string | null }[]>(
          'GET',
          `/teacher/recognition/homework/${scene.homework.id}/sheets`,
        )
      ).find((s) => s.studentId === scene.student.id)?.id ?? null;
    await expect.poll(sheetOfStudent, { timeout: 300_000, interval: 1_000 }).not.toBeNull();
    const detail = await api<{ answers: { questionId: string; response: string | null }[] }>(
      'GET',
      `/teacher/recognition/sheet/${(await sheetOfStudent())!}`,
    );
    expect(scene.good.truth.marks.length).toBeGreaterThan(0);
    for (const m of scene.good.truth.marks) {
      expect(detail.answers.find((a) => a.questionId === m.questionId)?.response, m.questionId).toBe(
        m.intended,
      );
    }

    // A dark photo from the phone's own camera app is refused at once, with the reason to retake it.
    await dialog.getByTestId('photo-file-input').setInputFiles({
      name: 'IMG_dark.jpg',
      mimeType: 'image/jpeg',
      buffer: scene.dark.bytes,
    });
    await expect.poll(() => shots.count()).toBe(2);
    await expect.poll(() => shots.first().getAttribute('data-status'), { timeout: 120_000 }).toBe('refused');
    expect(await shots.first().textContent()).toContain(PHOTO_REFUSAL_MESSAGES.tooDark);
    // Said at once beside the camera, so the teacher retakes it on the spot.
    expect(await dialog.getByRole('alert').textContent()).toBe(
      `第 2 张未通过：${PHOTO_REFUSAL_MESSAGES.tooDark}`,
    );
    expect(await dialog.getByTestId('photo-summary').textContent()).toBe('已上传 1 张，1 张未通过需要重拍');
    await shots.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'phone-capture-refused-390.png') });
    await context.close();
  });
});
